//! Where `confab`'s settings come from. Every flag of every command can also be given as an
//! environment variable (`--smtp-host` is `CONFAB_SMTP_HOST`), and the server's flags in a TOML
//! file named by `--config` (or `CONFAB_CONFIG`), one key per flag (`smtp_host = "..."`, or
//! `smtp-host`; a list for a flag given several times). When a setting is given in several
//! places, the first of these wins:
//!
//! 1. the command line,
//! 2. the environment,
//! 3. the configuration file,
//! 4. the built-in default.
//!
//! The file's values become the flags' defaults before clap parses the command line, so clap
//! applies this order and checks every value the same way wherever it came from. A key that
//! is not one of `serve`'s flags is refused, and so is a value of the wrong kind: a file with a
//! mistake never starts a server that quietly ignores it (`confab check-config` says what).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, Command};

/// The flag that names the file, and its variable.
pub const CONFIG_FLAG: &str = "config";
pub const CONFIG_ENV: &str = "CONFAB_CONFIG";

/// A configuration file read: the path, and its settings as flag ids and their values.
#[derive(Debug, Default)]
pub struct FileSettings {
    pub path: Option<PathBuf>,
    pub values: Vec<(String, Vec<String>)>,
}

/// The environment variable of a flag: `CONFAB_` and its name in capitals, `_` for `-`.
pub fn env_name(id: &str) -> String {
    format!("CONFAB_{}", id.replace('-', "_").to_uppercase())
}

/// The file `--config` or `CONFAB_CONFIG` names, found before clap parses the command line
/// (the file decides the defaults clap parses with).
pub fn config_path(args: &[OsString]) -> Option<PathBuf> {
    let flag = format!("--{CONFIG_FLAG}");
    let prefix = format!("--{CONFIG_FLAG}=");
    let mut args = args.iter().skip(1);
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if text == "--" {
            break;
        }
        if text == flag {
            return args.next().map(PathBuf::from);
        }
        if let Some(path) = text.strip_prefix(&prefix) {
            return Some(PathBuf::from(path));
        }
    }
    std::env::var_os(CONFIG_ENV).map(PathBuf::from)
}

/// Reads a configuration file against `serve`'s flags.
pub fn read_file(path: &Path, serve: &Command) -> Result<FileSettings, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut values = Vec::new();
    for (key, value) in table {
        let id = key.replace('-', "_");
        let arg = serve
            .get_arguments()
            .find(|a| a.get_id().as_str() == id && a.get_long().is_some() && a.get_id() != CONFIG_FLAG)
            .ok_or_else(|| format!("{}: `{key}` is not a setting of `confab serve`", path.display()))?;
        let strings = match value {
            toml::Value::Array(items) => {
                if !takes_many(arg) {
                    return Err(format!("{}: `{key}` takes one value, not a list", path.display()));
                }
                items.into_iter().map(|item| scalar(&key, item, path)).collect::<Result<_, _>>()?
            }
            other => vec![scalar(&key, other, path)?],
        };
        values.push((id, strings));
    }
    Ok(FileSettings { path: Some(path.to_owned()), values })
}

fn takes_many(arg: &Arg) -> bool {
    matches!(arg.get_action(), ArgAction::Append)
}

fn scalar(key: &str, value: toml::Value, path: &Path) -> Result<String, String> {
    match value {
        toml::Value::String(s) => Ok(s),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("{}: `{key}` cannot be {}", path.display(), other.type_str())),
    }
}

/// The command line with every flag readable from the environment and the file's settings as
/// defaults, in every command that has the flag.
pub fn with_sources(mut command: Command, file: &FileSettings) -> Command {
    command = command.arg(
        Arg::new(CONFIG_FLAG)
            .long(CONFIG_FLAG)
            .global(true)
            .value_name("FILE")
            .env(CONFIG_ENV)
            .help("A TOML file of `confab serve`'s settings, one key per flag (see README)"),
    );
    // The flags of every command (`--log-format`) ...
    let global: Vec<String> = command
        .get_arguments()
        .filter(|a| a.get_long().is_some() && a.get_id() != CONFIG_FLAG)
        .map(|a| a.get_id().to_string())
        .collect();
    for id in global {
        command = command.mut_arg(&id, |arg| arg.env(env_name(&id)));
    }
    // ... and of each command.
    let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_owned()).collect();
    for name in names {
        command = command.mut_subcommand(&name, |mut sub| {
            let ids: Vec<String> = sub
                .get_arguments()
                .filter(|a| a.get_long().is_some() && a.get_id() != CONFIG_FLAG)
                .map(|a| a.get_id().to_string())
                .collect();
            for id in ids {
                let from_file = file.values.iter().find(|(key, _)| *key == id).map(|(_, v)| v.clone());
                sub = sub.mut_arg(&id, |arg| {
                    let arg = arg.env(env_name(&id));
                    match from_file {
                        Some(values) => arg.default_values(values).required(false),
                        None => arg,
                    }
                });
            }
            sub
        });
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Demo {
        #[command(subcommand)]
        command: Sub,
    }

    #[derive(clap::Subcommand, Debug)]
    enum Sub {
        Serve {
            #[arg(long, default_value = "127.0.0.1:1")]
            bind: String,
            #[arg(long)]
            allow_to: Vec<String>,
            #[arg(long, default_value_t = 5)]
            limit: u32,
        },
    }

    fn write(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("confab.toml");
        std::fs::write(&path, text).expect("write");
        (dir, path)
    }

    fn serve(command: &Command) -> Command {
        command.find_subcommand("serve").expect("serve").clone()
    }

    fn parse(file: &FileSettings, args: &[&str]) -> Result<Sub, String> {
        use clap::{CommandFactory, FromArgMatches};
        let command = with_sources(Demo::command(), file);
        let matches = command.try_get_matches_from(args).map_err(|e| e.to_string())?;
        Demo::from_arg_matches(&matches).map(|d| d.command).map_err(|e| e.to_string())
    }

    #[test]
    fn the_command_line_wins_over_the_file_which_wins_over_the_default() {
        use clap::CommandFactory;
        let (_dir, path) = write("bind = \"0.0.0.0:80\"\nallow-to = [\"10.0.0.0/8\", \"::1\"]\n");
        let file = read_file(&path, &serve(&Demo::command())).expect("a good file");
        let Sub::Serve { bind, allow_to, limit } = parse(&file, &["demo", "serve"]).expect("parses");
        assert_eq!(
            (bind.as_str(), allow_to, limit),
            ("0.0.0.0:80", vec!["10.0.0.0/8".into(), "::1".into()], 5)
        );
        let Sub::Serve { bind, .. } = parse(&file, &["demo", "serve", "--bind", "[::]:1"]).expect("parses");
        assert_eq!(bind, "[::]:1");
    }

    #[test]
    fn a_mistake_in_the_file_is_refused_with_the_key() {
        use clap::CommandFactory;
        let serve = serve(&Demo::command());
        let (_dir, path) = write("bnid = \"0.0.0.0:80\"\n");
        assert!(read_file(&path, &serve).expect_err("refused").contains("`bnid` is not a setting"));
        let (_dir, path) = write("bind = [\"a\", \"b\"]\n");
        assert!(read_file(&path, &serve).expect_err("refused").contains("takes one value"));
        let (_dir, path) = write("limit = \"many\"\n");
        let file = read_file(&path, &serve).expect("read: clap checks the value");
        assert!(parse(&file, &["demo", "serve"]).expect_err("refused").contains("many"));
        let (_dir, path) = write("bind = \n");
        assert!(read_file(&path, &serve).is_err());
    }

    #[test]
    fn the_config_flag_is_found_before_parsing() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(config_path(&args(&["confab", "serve", "--config", "a.toml"])), Some("a.toml".into()));
        assert_eq!(config_path(&args(&["confab", "--config=b.toml", "serve"])), Some("b.toml".into()));
        assert_eq!(env_name("smtp_host"), "CONFAB_SMTP_HOST");
    }
}
