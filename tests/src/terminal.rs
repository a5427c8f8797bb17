//! Driving a terminal program in tmux: start it in a detached session, read the screen, type.

use std::process::Command;
use std::time::{Duration, Instant};

/// A detached tmux session running one program. Killed when dropped.
pub struct Tmux {
    session: String,
}

fn tmux(args: &[&str]) -> std::process::Output {
    Command::new("tmux").args(args).output().expect("tmux runs (apt-get install tmux)")
}

impl Tmux {
    /// Starts `command` (a shell command line) in a new session of the given size.
    pub fn start(name: &str, command: &str, width: u16, height: u16) -> Tmux {
        let session = format!("{name}-{}", std::process::id());
        let output = tmux(&[
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            command,
        ]);
        assert!(output.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&output.stderr));
        Tmux { session }
    }

    /// The visible screen, as text.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", &self.session]).stdout).into_owned()
    }

    /// Waits until the screen shows `text`, checking every 100 ms, for at most `limit`. The limit
    /// only bounds a failing test; a passing one continues as soon as the text appears.
    pub fn wait_for(&self, text: &str, limit: Duration) -> Result<String, String> {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return Ok(screen);
            }
            if start.elapsed() > limit {
                return Err(format!("{text:?} never appeared; the screen was:\n{screen}"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sends keys as tmux names them (`Enter`, `C-d`, or literal text with `literal`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.session.as_str()];
        args.extend_from_slice(keys);
        tmux(&args);
    }

    /// Types text literally.
    pub fn type_text(&self, text: &str) {
        tmux(&["send-keys", "-t", &self.session, "-l", text]);
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.session]);
    }
}
