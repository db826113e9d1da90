//! The scheduler: every lane is a coroutine on the calling OS thread, resumed
//! in a deterministic round-robin order until it blocks at a primitive or
//! returns. When no lane can run, the `activemask` convergence model is
//! applied; if that frees nobody, the stall is diagnosed.

use std::cell::{Cell, RefCell, RefMut};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::Once;

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
use corosensei::{Coroutine, CoroutineResult, Yielder};

use crate::SimError;
use crate::report::{Report, SourceLocation};
use crate::stack::{LaneStack, StackPool};
#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
use crate::types::LaneState;
use crate::types::{Outcome, Step, Wait};
use crate::unit::Core;

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
type LaneCoroutine = Coroutine<(), (), (), LaneStack>;

thread_local! {
    /// The running launch's state (null outside a launch).
    static CORE: Cell<*const RefCell<Core>> = const { Cell::new(ptr::null()) };
    /// Unit index of the lane being resumed.
    static CUR: Cell<u32> = const { Cell::new(0) };
    /// Set while a lane runs: its panics are captured, not printed.
    static IN_LANE: Cell<bool> = const { Cell::new(false) };
    /// Where the last lane panic was raised.
    static PANIC_AT: RefCell<Option<SourceLocation>> = const { RefCell::new(None) };
}

/// Consecutive `yield_now` resumes, per queued lane, after which the
/// spinning lanes are reported as a livelock.
const SPIN_ROUNDS: u64 = 1000;

fn core_cell() -> &'static RefCell<Core> {
    let p = CORE.with(Cell::get);
    assert!(
        !p.is_null(),
        "cg_sim::lane functions may only be called by a kernel running under cg_sim::launch"
    );
    // SAFETY: `CORE` is non-null only while a launch runs on this thread
    // (`launch_with`, or a worker of `launch_parallel`), and it points at a
    // `RefCell<Core>` on that function's frame that outlives every lane
    // (lanes are dropped before the pointer is cleared). The
    // `'static` lifetime never escapes a primitive's body.
    unsafe { &*p }
}

/// Unit index of the lane running on this thread (0 outside a launch).
pub(crate) fn current_lane() -> u32 {
    CUR.with(Cell::get)
}

/// Whether a lane of a launch is running on this thread.
pub(crate) fn in_launch() -> bool {
    !CORE.with(Cell::get).is_null() && IN_LANE.with(Cell::get)
}

/// Runs `f` on the launch state for the current lane.
pub(crate) fn with_core<R>(f: impl FnOnce(&mut Core, u32) -> R) -> R {
    let cell = core_cell();
    f(&mut cell.borrow_mut(), CUR.with(Cell::get))
}

/// Runs a possibly blocking primitive for the current lane: `f` either
/// completes it or records the lane as blocked, in which case the lane
/// suspends and later reads the value the rendezvous left for it.
///
/// Inlined into each primitive: called through a closure, the primitive's
/// operands were copied out of the closure's captures with wide loads
/// right after the caller's narrower stores (a store-forwarding stall that
/// held a fifth of the time of a lane's shuffle).
#[inline(always)]
pub(crate) fn block_on(f: impl FnOnce(&mut Core, u32) -> Step) -> u64 {
    block_on_or(f, |_, _| 0)
}

/// [`block_on`], with what the primitive gives a lane that unwinds:
/// `unwinding`'s value (the primitive is not run; `block_on` gives 0). A
/// primitive whose value is an address gives one that may be accessed.
#[inline(always)]
pub(crate) fn block_on_or(
    f: impl FnOnce(&mut Core, u32) -> Step,
    unwinding: impl FnOnce(&mut Core, u32) -> u64,
) -> u64 {
    let cell = core_cell();
    let me = CUR.with(Cell::get);
    let mut core = cell.borrow_mut();
    if core.tearing_down || std::thread::panicking() {
        // The lane is unwinding (after its own panic, or because the
        // launch failed): it must not suspend, since the panic state is
        // per OS thread and other lanes would run "while panicking".
        return unwinding(&mut core, me);
    }
    if let Step::Done(v) = f(&mut core, me) {
        return v;
    }
    suspend(cell, core, me, true);
    cell.borrow().lanes[me as usize].result
}

/// Suspends the running lane `me` (`core` is the launch state it
/// borrowed), after a blocking primitive (`blocked`) or `yield_now`.
///
/// A blocked lane hands the thread to the next queued lane itself when the
/// scheduler would do nothing but resume that lane: no error to report,
/// and a lane in `queue` (the scheduler takes `queue` before `spinners`).
/// It does the scheduler's bookkeeping for the switch first (the resume
/// counted, the spin streak broken as by any non-spinning lane). Otherwise
/// the scheduler takes over, as for every `yield_now`.
#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
#[inline(always)]
fn suspend(cell: &RefCell<Core>, mut core: RefMut<'_, Core>, me: u32, blocked: bool) {
    let save = &raw mut core.fiber_sp[me as usize];
    let next = if blocked && core.error.is_none() {
        core.lanes.queue.pop_front()
    } else {
        None
    };
    let to = match next {
        Some(j) => {
            core.stats.context_switches += 1;
            core.spin_streak = 0;
            CUR.with(|c| c.set(j));
            // The lane after `j` runs next but one: start fetching the top
            // of its stack (its saved registers and the frames of its
            // suspension), which a round over a block's lanes has evicted.
            if let Some(&k) = core.lanes.queue.front() {
                crate::fiber::prefetch(core.fiber_sp[k as usize], STACK_LINES);
            }
            core.fiber_sp[j as usize]
        }
        None => {
            core.fiber_out = Some((me, Outcome::Yield));
            core.sched_sp
        }
    };
    drop(core);
    // SAFETY: `save` is this lane's slot in `fiber_sp`, which lives as long
    // as the unit (nothing resizes it while lanes run) and which no
    // reference covers now (the borrow is dropped); `to` is the stack
    // pointer of a queued lane, suspended or prepared with its stack alive
    // (`UnitLanes` holds it until the lane finishes), or the scheduler's,
    // which waits in `UnitLanes::run` for exactly this.
    unsafe { crate::fiber::switch(save, to) };
    if cell.borrow().tearing_down {
        // The launch failed: teardown resumes a suspended lane only to
        // unwind its stack (running its destructors), as dropping a
        // suspended coroutine does.
        std::panic::resume_unwind(Box::new(TearDown));
    }
}

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
fn suspend(_cell: &RefCell<Core>, core: RefMut<'_, Core>, me: u32, _blocked: bool) {
    let y = core.lanes[me as usize].yielder;
    drop(core);
    assert!(
        !y.is_null(),
        "lane suspended before registering its yielder"
    );
    // SAFETY: the yielder was registered by this very coroutine when it
    // started and lives on its stack until it finishes; we are running on
    // that coroutine now.
    unsafe { (*y).suspend(()) };
}

/// Cache lines above a suspended lane's stack pointer that its resumption
/// reads first (its saved registers, then the primitive's frame, into
/// which `block_on` and `suspend` are inlined), prefetched one lane ahead.
/// Two since the primitives' frames shrank (beb5c78): on an Intel Xeon VM,
/// 2 lines gave 50.3-51.7 M lane-collectives/s against 48.5-50.1 with 6
/// and 46.1-46.8 with none (interleaved runs of the `speed` example's
/// `shfl`); the prefetches of the lines not needed were a quarter of the
/// samples (perf).
#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
const STACK_LINES: usize = 2;

/// The payload that unwinds a suspended lane at teardown.
#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
struct TearDown;

/// `yield_now`: give up the turn, stay runnable.
pub(crate) fn yield_now(loc: &'static std::panic::Location<'static>) {
    let cell = core_cell();
    let me = CUR.with(Cell::get);
    let mut core = cell.borrow_mut();
    if core.tearing_down || std::thread::panicking() {
        return;
    }
    let l = &mut core.lanes[me as usize];
    l.wait = Wait::Spin;
    l.loc = loc;
    if core.lanes.spin_last {
        core.lanes.spinners.push_back(me);
    } else {
        core.lanes.queue.push_back(me);
    }
    suspend(cell, core, me, false);
    cell.borrow_mut().lanes[me as usize].wait = Wait::None;
}

/// Captures, instead of printing, the panics of lanes (on every thread,
/// once per process): their location goes into the lane's report.
pub(crate) fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_LANE.try_with(Cell::get).unwrap_or(false) {
                let loc = info.location().map(SourceLocation::from);
                let _ = PANIC_AT.try_with(|p| p.replace(loc));
            } else {
                prev(info)
            }
        }));
    });
}

/// Whether a launch runs on this thread (a kernel that launches again).
pub(crate) fn launch_running() -> bool {
    !CORE.with(Cell::get).is_null()
}

/// Clears the thread's launch pointer when the launch ends, however it ends.
pub(crate) struct LaunchGuard;

impl LaunchGuard {
    pub(crate) fn install(core: &RefCell<Core>) -> LaunchGuard {
        CORE.with(|c| c.set(core));
        LaunchGuard
    }
}

impl Drop for LaunchGuard {
    fn drop(&mut self) {
        CORE.with(|c| c.set(ptr::null()));
        IN_LANE.with(|f| f.set(false));
    }
}

/// The lanes of the unit being run: on x86-64 Unix, contexts that switch
/// from lane to lane ([`crate::fiber`]); elsewhere, `corosensei`
/// coroutines that each give the thread back to the scheduler.
#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
pub(crate) struct UnitLanes<'k> {
    /// The kernel reference in `run_unit`'s frame (or a cooperative
    /// launch's worker's, `coop.rs`), whose address every lane's entry
    /// reads it from: borrowed for as long as the lanes live.
    _kernel: std::marker::PhantomData<&'k &'k dyn Fn()>,
    /// Each lane's stack, until the lane finishes.
    stacks: Vec<Option<LaneStack>>,
}

#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
impl<'k> UnitLanes<'k> {
    /// Stacks and start contexts for the unit's `n` lanes (as many as
    /// there were stacks for, with the error that stopped there).
    pub(crate) fn new(
        core: &RefCell<Core>,
        n: usize,
        kernel: &'k &'k dyn Fn(),
        pool: &mut StackPool,
    ) -> (Self, Result<(), SimError>) {
        let kp = kernel as *const &dyn Fn() as usize;
        let mut stacks = Vec::with_capacity(n);
        let mut sps = Vec::with_capacity(n);
        let mut result = Ok(());
        for i in 0..n {
            match pool.get() {
                Ok(s) => {
                    let top = corosensei::stack::Stack::base(&s).get();
                    // SAFETY: the stack is new or its last lane finished:
                    // nothing lives below its top.
                    sps.push(unsafe { crate::fiber::prepare(top, lane_entry, kp, i) });
                    stacks.push(Some(s));
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let mut c = core.borrow_mut();
        c.fiber_started = vec![false; sps.len()];
        c.fiber_sp = sps;
        let lanes = UnitLanes {
            _kernel: std::marker::PhantomData,
            stacks,
        };
        (lanes, result)
    }

    /// Resumes (or starts) queued lane `i`; returns when a lane (`i`, or
    /// one the thread was handed to) gives the thread back, with that
    /// lane and how.
    fn run(&mut self, core: &RefCell<Core>, i: u32) -> (u32, Outcome) {
        assert!(
            self.stacks[i as usize].is_some(),
            "queued lane has no stack"
        );
        let (save, to) = {
            let mut c = core.borrow_mut();
            (&raw mut c.sched_sp, c.fiber_sp[i as usize])
        };
        // SAFETY: `save` is the scheduler's slot in the unit state, which
        // no reference covers now; `to` is lane `i`'s context, suspended or
        // prepared, on its live stack. Lanes switch back here only through
        // `sched_sp`, having left `fiber_out`.
        unsafe { crate::fiber::switch(save, to) };
        core.borrow_mut()
            .fiber_out
            .take()
            .expect("a lane gave the thread back without saying how")
    }

    /// The stack of lane `l`, which finished.
    fn finished(&mut self, l: u32) -> Option<LaneStack> {
        self.stacks[l as usize].take()
    }

    pub(crate) fn any_alive(&self) -> bool {
        self.stacks.iter().any(Option::is_some)
    }

    /// Unwinds every lane that started and has not finished, with
    /// primitives disabled, and frees the stacks.
    pub(crate) fn teardown(&mut self, core: &RefCell<Core>) {
        core.borrow_mut().tearing_down = true;
        for i in 0..self.stacks.len() {
            if self.stacks[i].is_none() {
                continue;
            }
            if core.borrow().fiber_started[i] {
                CUR.with(|c| c.set(i as u32));
                // It unwinds from its suspension (`TearDown`) and hands
                // the thread back as a panic, which says nothing new.
                drop(self.run(core, i as u32));
            }
            self.stacks[i] = None;
        }
        core.borrow_mut().tearing_down = false;
    }
}

/// The first code of every lane (called by the context [`crate::fiber`]
/// prepared for it): runs the kernel `*kp` as lane `i`, then hands the
/// thread back to the scheduler for good.
#[cfg(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes")))]
pub(crate) extern "C" fn lane_entry(kp: usize, i: usize) -> ! {
    let cell = core_cell();
    cell.borrow_mut().fiber_started[i] = true;
    // SAFETY: `kp` points at the kernel reference in `run_unit`'s frame,
    // or in the frame of the thread that runs a cooperative launch's
    // cluster (`coop.rs`: `UnitLanes` borrows it), which outlives every
    // lane of the unit: they all finish or are unwound
    // (`UnitLanes::teardown`) before `run_unit` returns, or before the
    // `CoopWorker` that holds them is dropped.
    let kernel: &dyn Fn() = unsafe { *(kp as *const &dyn Fn()) };
    let out = match catch_unwind(AssertUnwindSafe(kernel)) {
        Ok(()) => Outcome::Return,
        Err(payload) => Outcome::Panic(payload),
    };
    let (save, to) = {
        let mut c = cell.borrow_mut();
        c.fiber_out = Some((i as u32, out));
        (&raw mut c.fiber_sp[i], c.sched_sp)
    };
    // SAFETY: as in `suspend`: `save` is this lane's slot, `to` the
    // scheduler waiting in `UnitLanes::run`. Nothing on this stack needs
    // dropping any more: it is never resumed.
    unsafe { crate::fiber::switch(save, to) };
    std::process::abort()
}

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
pub(crate) struct UnitLanes<'k> {
    coros: Vec<Option<LaneCoroutine>>,
    _kernel: std::marker::PhantomData<&'k &'k dyn Fn()>,
}

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
impl<'k> UnitLanes<'k> {
    pub(crate) fn new(
        _core: &RefCell<Core>,
        n: usize,
        kernel: &'k &'k dyn Fn(),
        pool: &mut StackPool,
    ) -> (Self, Result<(), SimError>) {
        let mut coros = Vec::with_capacity(n);
        let mut result = Ok(());
        for i in 0..n as u32 {
            match pool.get() {
                Ok(stack) => coros.push(Some(new_lane(stack, i, *kernel))),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let lanes = UnitLanes {
            coros,
            _kernel: std::marker::PhantomData,
        };
        (lanes, result)
    }

    fn run(&mut self, _core: &RefCell<Core>, i: u32) -> (u32, Outcome) {
        let co = self.coros[i as usize]
            .as_mut()
            .expect("queued lane has no coroutine");
        let out = match catch_unwind(AssertUnwindSafe(|| co.resume(()))) {
            Ok(CoroutineResult::Yield(())) => Outcome::Yield,
            Ok(CoroutineResult::Return(())) => Outcome::Return,
            Err(payload) => Outcome::Panic(payload),
        };
        (i, out)
    }

    fn finished(&mut self, l: u32) -> Option<LaneStack> {
        self.coros[l as usize].take().map(Coroutine::into_stack)
    }

    pub(crate) fn any_alive(&self) -> bool {
        self.coros.iter().any(Option::is_some)
    }

    /// Unwinds every lane that has not finished, with primitives disabled.
    pub(crate) fn teardown(&mut self, core: &RefCell<Core>) {
        core.borrow_mut().tearing_down = true;
        for (i, co) in self.coros.iter_mut().enumerate() {
            if let Some(co) = co.take() {
                CUR.with(|c| c.set(i as u32));
                drop(co);
            }
        }
        let mut c = core.borrow_mut();
        c.tearing_down = false;
        for l in c
            .lanes
            .all
            .iter_mut()
            .filter(|l| l.state != LaneState::Exited)
        {
            l.yielder = ptr::null();
        }
    }
}

#[cfg(not(all(target_arch = "x86_64", unix, not(feature = "coroutine-lanes"))))]
fn new_lane(stack: LaneStack, i: u32, kernel: &dyn Fn()) -> LaneCoroutine {
    let body = move |y: &Yielder<(), ()>, ()| {
        with_core(|c, _| c.lanes[i as usize].yielder = y);
        kernel();
    };
    // SAFETY: the closure borrows `kernel`, which outlives the launch
    // (`launch_with`, or `launch_parallel`, whose workers are joined before
    // it returns); every coroutine is either run to completion or dropped
    // (unwound) inside `run_unit`, or when the `CoopWorker` of a
    // cooperative launch's cluster drops, before the launch returns.
    unsafe { Coroutine::with_stack_unchecked(stack, body) }
}

/// Runs the unit's lanes until none can run: `Ok` when every lane exited
/// — or, for one cluster of a cooperative launch run in segments
/// (`Core::coop`), when the lanes left all wait or are stuck, which the
/// launching thread judges over the whole grid (`coop::launch_coop`).
pub(crate) fn drive(
    core: &RefCell<Core>,
    lanes: &mut UnitLanes<'_>,
    stacks: &mut StackPool,
) -> Result<(), SimError> {
    loop {
        let next = {
            let mut c = core.borrow_mut();
            c.lanes
                .queue
                .pop_front()
                .or_else(|| c.lanes.spinners.pop_front())
        };
        let Some(i) = next else {
            let mut c = core.borrow_mut();
            if c.lanes.live == 0 {
                return Ok(());
            }
            if c.release_activemask() {
                continue;
            }
            if c.coop.is_some() {
                return Ok(());
            }
            if let Some(e) = c.disagreeing_check() {
                return Err(e);
            }
            return Err(c.stall_error());
        };
        CUR.with(|c| c.set(i));
        IN_LANE.with(|f| f.set(true));
        // The lane that gives the thread back: `i`, or (on x86-64 Unix) a
        // lane the thread was handed to after `i` blocked.
        let (i, r) = lanes.run(core, i);
        IN_LANE.with(|f| f.set(false));
        let mut c = core.borrow_mut();
        c.stats.context_switches += 1;
        match r {
            Outcome::Yield => {
                if matches!(c.lanes[i as usize].wait, Wait::Spin) {
                    c.spin_streak += 1;
                    // A whole round of spinning: the spinners may wait for
                    // lanes parked at `activemask`, so resolve those first.
                    let queued = (c.lanes.queue.len() + c.lanes.spinners.len()) as u64;
                    if c.spin_streak >= queued && c.release_activemask() {
                        c.spin_streak = 0;
                    } else if c.spin_streak > SPIN_ROUNDS * queued + 10_000 {
                        return Err(c.disagreeing_check().unwrap_or_else(|| livelock(&c)));
                    }
                } else {
                    c.spin_streak = 0;
                }
            }
            Outcome::Return => {
                c.spin_streak = 0;
                c.lane_exited(i);
                let stack = lanes.finished(i).expect("finished lane");
                stacks.put(stack);
            }
            Outcome::Panic(payload) => {
                // The lane is over; its stack goes with it.
                drop(lanes.finished(i));
                return Err(panic_error(&c, i, payload));
            }
        }
        if let Some(e) = c.error.take() {
            return Err(e);
        }
    }
}

fn livelock(c: &Core) -> SimError {
    let blocked = c.blocked_groups();
    SimError::Deadlock(Report {
        summary: format!(
            "livelock: every runnable lane has been spin-waiting (yield_now) for {SPIN_ROUNDS} rounds \
             while no other lane made progress"
        ),
        location: blocked.first().map(|g| g.location.clone()),
        blocked,
        accesses: None,
        notes: Vec::new(),
    })
}

fn panic_error(c: &Core, i: u32, payload: Box<dyn std::any::Any + Send>) -> SimError {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_owned()
    };
    let l = &c.lanes[i as usize];
    SimError::KernelPanic {
        block: c.blocks[l.block as usize].idx.into(),
        thread: l.tid.into(),
        message,
        location: PANIC_AT.with(|p| p.borrow_mut().take()),
    }
}
