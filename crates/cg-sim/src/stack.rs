//! A pool of lane stacks, reused across blocks and (a bounded number) across
//! launches on the same OS thread.

use std::cell::RefCell;

use corosensei::stack::DefaultStack;

use crate::SimError;

/// Stacks kept per OS thread between launches.
const CACHE_MAX: usize = 2048;

thread_local! {
    static CACHE: RefCell<(usize, Vec<DefaultStack>)> = const { RefCell::new((0, Vec::new())) };
}

pub(crate) struct StackPool {
    size: usize,
    free: Vec<DefaultStack>,
}

impl StackPool {
    /// A pool of stacks of `size` bytes, seeded from this thread's cache.
    pub fn new(size: usize) -> StackPool {
        let free = CACHE
            .try_with(|c| {
                let mut c = c.borrow_mut();
                if c.0 == size { std::mem::take(&mut c.1) } else { Vec::new() }
            })
            .unwrap_or_default();
        StackPool { size, free }
    }

    pub fn get(&mut self) -> Result<DefaultStack, SimError> {
        match self.free.pop() {
            Some(s) => Ok(s),
            None => DefaultStack::new(self.size).map_err(|e| {
                SimError::InvalidLaunch(format!(
                    "cannot allocate a {} KiB lane stack: {e} (too many lanes resident at once? \
                     lower SimDevice::stack_size or the grid of a cooperative launch)",
                    self.size / 1024
                ))
            }),
        }
    }

    pub fn put(&mut self, s: DefaultStack) {
        self.free.push(s);
    }
}

impl Drop for StackPool {
    fn drop(&mut self) {
        let mut free = std::mem::take(&mut self.free);
        free.truncate(CACHE_MAX);
        let size = self.size;
        let _ = CACHE.try_with(|c| {
            if let Ok(mut c) = c.try_borrow_mut() {
                *c = (size, free);
            }
        });
    }
}
