//! Where answers of megabytes are built: a few threads of their own, one per core.
//!
//! Register's answer for a large organization is megabytes, built as a JSON tree of small
//! allocations about ten times its size (6.4 MB of answer, about 60 MB at 10,000 users). Built
//! on tokio's blocking pool, each register could land on another thread, and glibc's allocator
//! keeps a high-water mark per thread arena: eight registers at a time left the server 530 MB
//! larger for good, and limiting them to two at a time did not help while they kept changing
//! threads. On threads of their own they reuse the same arenas; one per core costs no
//! throughput, since building is CPU-bound, and the rest wait their turn in order.

use std::sync::Arc;

use confab_core::{ApiError, ApiResult};

/// The threads large answers are built on.
#[derive(Clone)]
pub struct LargeAnswers {
    pool: Arc<rayon::ThreadPool>,
}

impl LargeAnswers {
    pub fn one_per_core() -> ApiResult<LargeAnswers> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(std::thread::available_parallelism().map_or(1, usize::from))
            .thread_name(|i| format!("confab-answers-{i}"))
            .build()
            .map_err(ApiError::internal)?;
        Ok(LargeAnswers { pool: Arc::new(pool) })
    }

    /// Runs `build` on one of the threads, in turn, and waits for its result.
    pub async fn build<T: Send + 'static>(
        &self,
        build: impl FnOnce() -> ApiResult<T> + Send + 'static,
    ) -> ApiResult<T> {
        let (done, result) = tokio::sync::oneshot::channel();
        self.pool.spawn_fifo(move || {
            // The caller may have gone (a closed connection); the answer is then dropped.
            let _ = done.send(build());
        });
        result.await.map_err(|_| ApiError::internal("a large answer's thread ended without it"))?
    }
}
