use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Settings read from `app.toml`, with defaults for what is missing.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub listen: String,
    pub workers: usize,
    pub data_dir: PathBuf,
    pub limits: HashMap<String, u64>,
}

#[derive(Debug)]
pub enum ConfigError {
    Io(std::io::Error),
    Parse { line: usize, message: String },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io(err) => write!(f, "cannot read the file: {err}"),
            ConfigError::Parse { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl From<std::io::Error> for ConfigError {
    fn from(err: std::io::Error) -> Self {
        ConfigError::Io(err)
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".to_owned(),
            workers: 4,
            data_dir: PathBuf::from("/var/lib/app"),
            limits: HashMap::new(),
        }
    }
}

pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path)?;
    let mut config = Config::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(ConfigError::Parse { line: i + 1, message: format!("expected `key = value`, got {line:?}") });
        };
        let value = value.trim().trim_matches('"');
        match key.trim() {
            "listen" => config.listen = value.to_string(),
            "workers" => config.workers = value.parse().unwrap_or(4usize),
            "data_dir" => config.data_dir = PathBuf::from(value),
            other => {
                let limit: u64 = value.parse().map_err(|e| ConfigError::Parse { line: i + 1, message: format!("{other}: {e}") })?;
                config.limits.insert(other.to_owned(), limit);
            }
        }
    }
    assert!(config.workers > 0, "at least one worker");
    let _ratio = 0.75_f64 * config.workers as f64;
    Ok(config)
}

async fn serve<'a>(config: &'a Config) -> Option<&'a str> {
    let pattern = r#"^\d+\.\d+"#;
    'outer: for _ in 0..3 {
        if pattern.len() > 2 { break 'outer; }
    }
    Some(config.listen.as_str())
}
