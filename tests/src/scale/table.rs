//! The suite's output: one line per workload with its goal, its ceiling and the ratio between
//! them, printed as a text table and written as Markdown with the machine it ran on.

use std::fmt::Write as _;

/// Whether a figure meets its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Met,
    Missed,
    /// No figure (the workload failed or was not run in full).
    Unknown,
}

impl Verdict {
    pub fn of(met: bool) -> Verdict {
        if met { Verdict::Met } else { Verdict::Missed }
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::Missed => "MISSED",
            Verdict::Unknown => "?",
        }
    }
}

/// One line of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub workload: String,
    pub figure: String,
    pub goal: String,
    /// The same work without Confab: what this machine allows.
    pub ceiling: String,
    pub ratio: String,
    pub verdict: Verdict,
}

impl Row {
    pub fn new(workload: impl Into<String>, goal: impl Into<String>) -> Row {
        Row {
            workload: workload.into(),
            figure: String::new(),
            goal: goal.into(),
            ceiling: "—".to_owned(),
            ratio: "—".to_owned(),
            verdict: Verdict::Unknown,
        }
    }

    pub fn figure(mut self, figure: impl Into<String>, verdict: Verdict) -> Row {
        self.figure = figure.into();
        self.verdict = verdict;
        self
    }

    /// A ceiling and the figure's share of it (for rates: figure ÷ ceiling).
    pub fn rate_ceiling(mut self, ceiling: impl Into<String>, figure: f64, ceiling_value: f64) -> Row {
        self.ceiling = ceiling.into();
        self.ratio = format!("{:.1} % of ceiling", 100.0 * figure / ceiling_value.max(1e-9));
        self
    }

    /// A ceiling and how many times it the figure takes (for times and sizes).
    pub fn cost_ceiling(mut self, ceiling: impl Into<String>, figure: f64, ceiling_value: f64) -> Row {
        self.ceiling = ceiling.into();
        self.ratio = format!("{:.1}× ceiling", figure / ceiling_value.max(1e-9));
        self
    }
}

/// Where and when the suite ran.
#[derive(Clone, Debug)]
pub struct Machine {
    pub date: String,
    pub cores: usize,
    pub model: String,
    pub load_before: String,
    pub load_after: String,
}

impl Machine {
    pub fn now() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let model = cpuinfo
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned())
            })
            .unwrap_or_else(|| "unknown".to_owned());
        let date = std::process::Command::new("date")
            .args(["-u", "+%Y-%m-%d %H:%M UTC"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default();
        Machine {
            date,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            model,
            load_before: load_average(),
            load_after: String::new(),
        }
    }
}

/// The 1, 5 and 15-minute load averages.
pub fn load_average() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// The table as aligned text.
pub fn text(rows: &[Row]) -> String {
    let header = ["workload", "figure", "goal", "ceiling", "ratio", ""];
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.workload.clone(),
                r.figure.clone(),
                r.goal.clone(),
                r.ceiling.clone(),
                r.ratio.clone(),
                r.verdict.word().to_owned(),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
            .collect();
        let _ = writeln!(out, "{}", padded.join(" | ").trim_end());
    };
    line(&header.map(str::to_owned));
    line(&widths.map(|w| "-".repeat(w)));
    for row in &cells {
        line(row);
    }
    out
}

/// The table as Markdown, headed by the machine and followed by the notes.
pub fn markdown(rows: &[Row], machine: &Machine, setup: &str, notes: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Measured {} on {} cores ({}), load average {} before and {} after. {setup}\n",
        machine.date, machine.cores, machine.model, machine.load_before, machine.load_after
    );
    let _ = writeln!(out, "| Workload | Figure | Goal | Ceiling | Ratio | |\n|---|---|---|---|---|---|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            r.workload,
            r.figure,
            r.goal,
            r.ceiling,
            r.ratio,
            r.verdict.word()
        );
    }
    if !notes.is_empty() {
        let _ = writeln!(out);
        for note in notes {
            let _ = writeln!(out, "- {note}");
        }
    }
    out
}
