//! What a backup, a restore or a verification reports while it works: a line per stage and,
//! within a long stage, a count at most every [`COUNT_INTERVAL`]. A command run here writes them
//! to standard error; a backup the server makes sends them down the control socket to the
//! `confab backup` that asked.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a long stage reports its count.
pub const COUNT_INTERVAL: Duration = Duration::from_secs(2);

/// Delivers one line; an error stops the work.
pub type Sink = Box<dyn FnMut(&str) -> Result<(), String> + Send>;

/// Where progress lines go. A line that cannot be delivered (the asking client went away), or
/// a stop asked for, ends the work: its caller cleans up and returns the error.
pub struct Progress {
    sink: Sink,
    stop: Arc<AtomicBool>,
    last_count: Instant,
}

impl Progress {
    /// Lines to standard error, prefixed with the command's name.
    pub fn to_stderr(command: &'static str) -> Progress {
        Progress::new(Box::new(move |line| {
            eprintln!("{command}: {line}");
            Ok(())
        }))
    }

    pub fn new(sink: Sink) -> Progress {
        Progress { sink, stop: Arc::default(), last_count: Instant::now() }
    }

    /// Ends the work at its next report once `flag` is set (the server is stopping).
    pub fn stopping_on(mut self, flag: Arc<AtomicBool>) -> Progress {
        self.stop = flag;
        self
    }

    /// Reports the start or end of a stage.
    pub fn stage(&mut self, line: &str) -> Result<(), String> {
        self.check_stop()?;
        self.last_count = Instant::now();
        (self.sink)(line)
    }

    /// Reports a count within a stage, if the last line is older than [`COUNT_INTERVAL`].
    pub fn count(&mut self, line: impl FnOnce() -> String) -> Result<(), String> {
        self.check_stop()?;
        if self.last_count.elapsed() < COUNT_INTERVAL {
            return Ok(());
        }
        self.last_count = Instant::now();
        (self.sink)(&line())
    }

    fn check_stop(&self) -> Result<(), String> {
        if self.stop.load(Ordering::Relaxed) {
            return Err("stopped: the server is shutting down".to_owned());
        }
        Ok(())
    }
}
