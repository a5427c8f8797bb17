//! `<time:…>`: a moment shown in each reader's time zone. Zulip parses the text with
//! `dateutil` (very lenient) and falls back to UNIX seconds; we accept ISO 8601, UNIX seconds,
//! compact `YYYYMMDD[hhmm[ss]]`, and dates written with month names or `/` (month first), with a
//! time (`10:30`, `10:30pm`) and a zone (`Z`, `+05:30`, `UTC`, `IST`, ...). Text naming no full
//! date is refused: dateutil would fill it in from today's date, and the core reads no clock.

use super::{Elem, Found, Stashed};
use crate::time::{civil_from_days, days_from_civil};

/// `<time:…>`, the text ending at the first `>`.
pub(super) fn timestamp(data: &str, from: usize) -> Option<Found> {
    let start = from + data[from..].find("<time:")?;
    let inner = start + 6;
    let close = inner + data[inner..].find('>')?;
    let text = &data[inner..close];
    let node = match parse(text) {
        Some(datetime) => Elem::atomic("time", text).attr("datetime", datetime),
        None => Elem::atomic("span", format!("Invalid time format: {text}")).attr("class", "timestamp-error"),
    };
    Some(Found::new(start, close + 1, Stashed::Element(node)))
}

/// A moment as Zulip writes it: `2017-06-05T22:30:00Z` (microseconds when there are any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Moment {
    /// Seconds since 1970-01-01T00:00:00Z.
    seconds: i64,
    micros: u32,
}

impl Moment {
    fn iso(self) -> Option<String> {
        let days = self.seconds.div_euclid(86_400);
        let secs = self.seconds.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        if !(1..=9999).contains(&year) {
            return None;
        }
        let mut out = format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        );
        if self.micros > 0 {
            out.push_str(&format!(".{:06}", self.micros));
        }
        out.push('Z');
        Some(out)
    }
}

fn parse(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return None;
    }
    if let Some(moment) = parse_date(trimmed) {
        return moment.iso();
    }
    let seconds: f64 = trimmed.parse().ok()?;
    if !seconds.is_finite() || seconds.abs() > 1e15 {
        return None;
    }
    let whole = seconds.floor();
    let mut micros = ((seconds - whole) * 1e6).round() as i64;
    let mut whole = whole as i64;
    if micros >= 1_000_000 {
        whole += 1;
        micros -= 1_000_000;
    }
    Moment { seconds: whole, micros: micros as u32 }.iso()
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

/// The parts of a date and time as written.
#[derive(Default)]
struct Parts {
    year: Option<i64>,
    month: Option<u32>,
    day: Option<u32>,
    hour: u32,
    minute: u32,
    second: u32,
    micros: u32,
    meridiem: Option<bool>,
    /// Offset east of UTC, in seconds; none means UTC.
    offset: Option<i64>,
}

impl Parts {
    fn moment(&self) -> Option<Moment> {
        let (year, month, day) = (self.year?, self.month?, self.day?);
        if !(1..=9999).contains(&year)
            || !(1..=12).contains(&month)
            || day == 0
            || day > days_in_month(year, month)
        {
            return None;
        }
        let mut hour = self.hour;
        match self.meridiem {
            Some(pm) if !(1..=12).contains(&hour) => {
                let _ = pm;
                return None;
            }
            Some(true) if hour < 12 => hour += 12,
            Some(false) if hour == 12 => hour = 0,
            _ => {}
        }
        if hour > 23 || self.minute > 59 || self.second > 59 {
            return None;
        }
        let local = days_from_civil(year, month, day) * 86_400
            + i64::from(hour) * 3600
            + i64::from(self.minute) * 60
            + i64::from(self.second);
        Some(Moment { seconds: local - self.offset.unwrap_or(0), micros: self.micros })
    }
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const WEEKDAYS: [&str; 7] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/// Time zone abbreviations and their offsets in minutes (the common ones of Zulip's table).
const ZONES: &[(&str, i64)] = &[
    ("utc", 0),
    ("gmt", 0),
    ("z", 0),
    ("ut", 0),
    ("wet", 0),
    ("west", 60),
    ("bst", 60),
    ("cet", 60),
    ("cest", 120),
    ("eet", 120),
    ("eest", 180),
    ("msk", 180),
    ("ist", 330),
    ("pkt", 300),
    ("ict", 420),
    ("sgt", 480),
    ("hkt", 480),
    ("awst", 480),
    ("jst", 540),
    ("kst", 540),
    ("acst", 570),
    ("aest", 600),
    ("aedt", 660),
    ("nzst", 720),
    ("nzdt", 780),
    ("hst", -600),
    ("akst", -540),
    ("akdt", -480),
    ("pst", -480),
    ("pdt", -420),
    ("mst", -420),
    ("mdt", -360),
    ("cst", -360),
    ("cdt", -300),
    ("est", -300),
    ("edt", -240),
    ("ast", -240),
    ("adt", -180),
    ("nst", -210),
    ("ndt", -150),
    ("brt", -180),
];

fn month_number(word: &str) -> Option<u32> {
    if word.len() < 3 {
        return None;
    }
    let word = if word == "sept" { "sep" } else { word };
    MONTHS.iter().position(|m| m.starts_with(word)).map(|i| i as u32 + 1)
}

fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

/// `+05:30`, `-0800`, `+5`: an offset in seconds.
fn offset(s: &str) -> Option<i64> {
    let sign = match s.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let body = s[1..].replace(':', "");
    if !body.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (hours, minutes) = match body.len() {
        1 | 2 => (digits(&body)?, 0),
        3 | 4 => (digits(&body[..body.len() - 2])?, digits(&body[body.len() - 2..])?),
        _ => return None,
    };
    (hours <= 23 && minutes <= 59).then(|| sign * (i64::from(hours) * 3600 + i64::from(minutes) * 60))
}

/// `HH:MM[:SS[.ffffff]]` into the parts.
fn clock(s: &str, parts: &mut Parts) -> Option<()> {
    let mut fields = s.split(':');
    parts.hour = digits(fields.next()?)?;
    parts.minute = digits(fields.next()?)?;
    if let Some(seconds) = fields.next() {
        let (whole, fraction) = seconds.split_once('.').unwrap_or((seconds, ""));
        parts.second = digits(whole)?;
        if !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !fraction.is_empty() {
            let padded = format!("{fraction:0<6}");
            parts.micros = digits(&padded[..6])?;
        }
    }
    fields.next().is_none().then_some(())
}

/// ISO 8601: `2017-06-05`, optionally `T` or space and a time, optionally `Z` or an offset.
fn iso(text: &str) -> Option<Parts> {
    let (date, rest) = text.split_at(text.find(['T', 't', ' ']).unwrap_or(text.len()));
    let mut fields = date.split('-');
    let (y, m, d) = (fields.next()?, fields.next()?, fields.next()?);
    if fields.next().is_some() || y.len() != 4 || m.len() > 2 || d.len() > 2 {
        return None;
    }
    let mut parts =
        Parts { year: Some(i64::from(digits(y)?)), month: digits(m), day: digits(d), ..Parts::default() };
    parts.month?;
    parts.day?;
    let time = rest.get(1..).unwrap_or("").trim();
    if time.is_empty() {
        return Some(parts);
    }
    let (clock_part, zone) = if let Some(t) = time.strip_suffix(['Z', 'z']) {
        (t.trim_end(), Some(0))
    } else if let Some(at) = time.rfind(['+', '-']) {
        (time[..at].trim_end(), Some(offset(&time[at..])?))
    } else {
        (time, None)
    };
    clock(clock_part, &mut parts)?;
    parts.offset = zone;
    Some(parts)
}

/// Dates with month names or slashes, times with am/pm, zones by name.
fn words(text: &str) -> Option<Parts> {
    let mut parts = Parts::default();
    let mut numbers: Vec<u32> = Vec::new();
    let lowered = text.to_lowercase();
    for token in lowered.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        let token = token.trim_end_matches('.');
        if token.is_empty() || matches!(token, "at" | "on" | "and" | "of" | "the") {
            continue;
        }
        if WEEKDAYS.iter().any(|w| token.len() >= 3 && w.starts_with(token)) {
            continue;
        }
        if let Some(month) = month_number(token) {
            parts.month = Some(month);
            continue;
        }
        match token {
            "am" | "a.m" => {
                parts.meridiem = Some(false);
                continue;
            }
            "pm" | "p.m" => {
                parts.meridiem = Some(true);
                continue;
            }
            _ => {}
        }
        if let Some((_, minutes)) = ZONES.iter().find(|(name, _)| *name == token) {
            parts.offset = Some(minutes * 60);
            continue;
        }
        if token.starts_with(['+', '-']) {
            parts.offset = Some(offset(token)?);
            continue;
        }
        if token.contains(':') {
            let (clock_text, meridiem) = if let Some(t) = token.strip_suffix("am") {
                (t, Some(false))
            } else if let Some(t) = token.strip_suffix("pm") {
                (t, Some(true))
            } else {
                (token, None)
            };
            clock(clock_text, &mut parts)?;
            if meridiem.is_some() {
                parts.meridiem = meridiem;
            }
            continue;
        }
        if token.contains('/') {
            let fields: Vec<&str> = token.split('/').collect();
            let [a, b, c] = fields[..] else { return None };
            let (y, m, d) = if a.len() == 4 { (a, b, c) } else { (c, a, b) };
            let year = i64::from(digits(y)?);
            parts.year = Some(if y.len() <= 2 { 2000 + year } else { year });
            parts.month = Some(digits(m)?);
            parts.day = Some(digits(d)?);
            continue;
        }
        if let Some(hour) = token.strip_suffix("am").or_else(|| token.strip_suffix("pm")).and_then(digits) {
            parts.hour = hour;
            parts.meridiem = Some(token.ends_with("pm"));
            continue;
        }
        let number = ["st", "nd", "rd", "th"].iter().find_map(|s| token.strip_suffix(s)).unwrap_or(token);
        let value = digits(number)?;
        if number.len() == 4 && parts.year.is_none() {
            parts.year = Some(i64::from(value));
        } else {
            numbers.push(value);
        }
    }
    for value in numbers {
        if parts.day.is_none() {
            parts.day = Some(value);
        } else if parts.year.is_none() {
            parts.year = Some(i64::from(value));
        } else {
            return None;
        }
    }
    Some(parts)
}

/// `YYYYMMDD`, `YYYYMMDDhhmm`, `YYYYMMDDhhmmss`.
fn compact(text: &str) -> Option<Parts> {
    if !matches!(text.len(), 8 | 12 | 14) || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let field = |range: std::ops::Range<usize>| text.get(range).and_then(digits).unwrap_or(0);
    Some(Parts {
        year: Some(i64::from(field(0..4))),
        month: Some(field(4..6)),
        day: Some(field(6..8)),
        hour: field(8..10),
        minute: field(10..12),
        second: field(12..14),
        ..Parts::default()
    })
}

fn parse_date(text: &str) -> Option<Moment> {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return compact(text)?.moment();
    }
    iso(text).or_else(|| words(text))?.moment()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn times_parse_to_utc() {
        let p = |s: &str| parse(s);
        assert_eq!(p("1496701800"), Some("2017-06-05T22:30:00Z".into()));
        assert_eq!(p("1496701800.5"), Some("2017-06-05T22:30:00.500000Z".into()));
        assert_eq!(p("2024-02-29T10:00:00+05:30"), Some("2024-02-29T04:30:00Z".into()));
        assert_eq!(p("2024-02-29T10:00:00Z"), Some("2024-02-29T10:00:00Z".into()));
        assert_eq!(p("2024-02-29 10:00"), Some("2024-02-29T10:00:00Z".into()));
        assert_eq!(p("Jun 5th 2017, 10:30PM"), Some("2017-06-05T22:30:00Z".into()));
        assert_eq!(p("31 Dec 2017"), Some("2017-12-31T00:00:00Z".into()));
        assert_eq!(p("31 Dec 2017 5:30 am IST"), Some("2017-12-31T00:00:00Z".into()));
        assert_eq!(p("12/31/2017"), Some("2017-12-31T00:00:00Z".into()));
        assert_eq!(p("20170605"), Some("2017-06-05T00:00:00Z".into()));
        assert_eq!(p("**hello world**"), None);
        assert_eq!(p("2023-02-30"), None);
        assert_eq!(p("10:30"), None);
        assert_eq!(p("inf"), None);
        assert_eq!(p(""), None);
        assert_eq!(p("2024-01-01T10:00+é1"), None);
        assert_eq!(p("2024-01-01T10:00:00.€€"), None);
    }
}
