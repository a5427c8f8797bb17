#!/usr/bin/perl
use strict;
use warnings;
use File::Basename qw(basename dirname);
use POSIX qw(strftime);

# Rotates the application's logs: compresses yesterday's, deletes old ones.
my %config = (
    dir       => '/var/log/app',
    keep_days => 14,
    pattern   => qr/^app-(\d{4})-(\d{2})-(\d{2})\.log$/,
);
my @deleted;
our $VERSION = '1.3.0';

sub age_in_days {
    my ($year, $month, $day) = @_;
    my $then = POSIX::mktime(0, 0, 0, $day, $month - 1, $year - 1900);
    return int((time - $then) / 86400);
}

sub rotate {
    my ($dir, $keep) = @_;
    opendir(my $dh, $dir) or die "cannot open $dir: $!";
    while (my $file = readdir $dh) {
        next unless $file =~ $config{pattern};
        my $age = age_in_days($1, $2, $3);
        my $path = "$dir/$file";
        if ($age > $keep) {
            unlink $path or warn "could not delete $path\n";
            push @deleted, $file;
        } elsif ($age >= 1 && !-e "$path.gz") {
            system('gzip', '-9', $path) == 0 or warn "gzip failed for $path";
        }
    }
    closedir $dh;
    return scalar @deleted;
}

my $count = rotate($config{dir}, $config{keep_days});
my $stamp = strftime('%Y-%m-%d %H:%M', localtime);
printf STDERR "[%s] removed %d file(s)\n", $stamp, $count;
foreach my $name (sort { lc($a) cmp lc($b) } @deleted) {
    (my $short = $name) =~ s/\.log$//;
    print "  - $short\n";
}
my $summary = join(', ', map { uc } grep { length > 0 } @deleted);
print <<"END";
Summary: $summary
END
exit($count > 0 ? 0 : 1);
