//! A progress bar on stderr, drawn only when stderr is a terminal.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a lab run.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `total` steps (hidden when stderr is not a terminal or `quiet`).
    pub fn new(total: u64, quiet: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if quiet {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        bar.set_style(
            ProgressStyle::with_template("{bar:32} {pos}/{len} {elapsed} {msg}")
                .expect("static template")
                .progress_chars("=> "),
        );
        Progress { bar }
    }

    /// Advances by `n` steps.
    pub fn inc(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Shows what is running now.
    pub fn set_message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
