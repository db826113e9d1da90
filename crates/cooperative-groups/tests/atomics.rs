//! Every atomic operation × type × ordering that compiles, on the simulator:
//! results, compare-and-swap failure paths, `inc`/`dec` wraparound, min/max
//! signedness, exact totals under contention from many lanes and blocks, on
//! global (host) and shared memory, plus the patterns they exist for (flag
//! handshake, ticket lock, last block finishes) and the livelock report of a
//! spin that cannot end.

use std::fmt::Debug;

use cg_sim::{LaunchConfig, SimError, launch};
use cooperative_groups::atomic::{
    AcqRel, Acquire, AtomicArith, AtomicInteger, AtomicRef, AtomicValue, Block, Cluster, Device,
    LoadOrdering, Ordering, Relaxed, Release, Scope, SeqCst, StoreOrdering, System, atomic_and,
    atomic_cas, atomic_dec, atomic_exch, atomic_inc, atomic_max, atomic_min, atomic_or, atomic_sub,
    atomic_xor, fence, nanosleep, threadfence, threadfence_block, threadfence_system,
};
use cooperative_groups::intrinsics::{block_dim, block_idx, thread_idx};
use cooperative_groups::{shared_array, this_thread_block};

/// The global linear index of the calling lane.
fn gid() -> u32 {
    block_idx().x * block_dim().x + thread_idx().x
}

/// Values of every atomic type built from small integers.
trait Num: AtomicValue + PartialEq + Debug + Send + Sync {
    fn n(i: i64) -> Self;
}
macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn n(i: i64) -> Self {
                i as $t
            }
        }
    )*};
}
num!(u32, i32, u64, i64, f32, f64);

/// A cell the lanes of a launch share (the launch's "global memory").
struct Global<T>(std::cell::UnsafeCell<T>);
// SAFETY: lanes run on one OS thread and access the cell atomically.
unsafe impl<T> Sync for Global<T> {}
impl<T> Global<T> {
    fn new(v: T) -> Self {
        Global(std::cell::UnsafeCell::new(v))
    }
    fn r<S: Scope>(&self) -> AtomicRef<'_, T, S>
    where
        T: AtomicValue,
    {
        // SAFETY: the cell outlives the reference; every access is atomic.
        unsafe { AtomicRef::from_ptr(self.0.get()) }
    }
    fn get(self) -> T {
        self.0.into_inner()
    }
}

fn run(grid: u32, block: u32, k: &dyn Fn()) {
    launch(&LaunchConfig::new(grid, block), k).unwrap();
}

/// Store then load in one lane, in every scope.
fn load_store<T: Num, L: LoadOrdering, St: StoreOrdering>() {
    fn one<T: Num, S: Scope, L: LoadOrdering, St: StoreOrdering>() {
        let g = Global::new(T::n(3));
        let seen = Global::new(T::n(0));
        run(1, 1, &|| {
            let a = g.r::<S>();
            assert_eq!(a.load(L::default()), T::n(3));
            a.store(T::n(-7), St::default());
            seen.r::<Device>().store(a.load(L::default()), Relaxed);
        });
        assert_eq!(g.get(), T::n(-7));
        assert_eq!(seen.get(), T::n(-7));
    }
    one::<T, Block, L, St>();
    one::<T, Cluster, L, St>();
    one::<T, Device, L, St>();
    one::<T, System, L, St>();
}

/// Exchange and compare-exchange (both paths) in one lane; then 256 lanes
/// of 4 blocks exchange their ids in: every old value is seen exactly once.
fn exchange_cas<T: Num, O: Ordering>() {
    let g = Global::new(T::n(5));
    run(1, 1, &|| {
        let a = g.r::<Block>();
        let o = O::default();
        assert_eq!(a.exchange(T::n(9), o), T::n(5));
        assert_eq!(
            a.compare_exchange(T::n(4), T::n(1), o),
            Err(T::n(9)),
            "CAS must fail"
        );
        assert_eq!(a.load(Relaxed), T::n(9), "a failed CAS writes nothing");
        assert_eq!(a.compare_exchange(T::n(9), T::n(1), o), Ok(T::n(9)));
        assert_eq!(a.load(Relaxed), T::n(1));
    });
    assert_eq!(g.get(), T::n(1));

    let g = Global::new(T::n(1000));
    let seen: Vec<Global<T>> = (0..257).map(|_| Global::new(T::n(-1))).collect();
    run(4, 64, &|| {
        let i = gid() as i64;
        let old = g.r::<Device>().exchange(T::n(i), O::default());
        seen[i as usize].r::<Device>().store(old, Relaxed);
    });
    let last = g.get();
    let mut olds: Vec<T> = seen.into_iter().take(256).map(Global::get).collect();
    olds.push(last);
    let mut want: Vec<T> = (0..256).map(T::n).collect();
    want.push(T::n(1000));
    let key = |v: &T| format!("{v:?}");
    olds.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(olds, want, "every value exchanged in is exchanged out once");
}

/// CAS-loop increments from 4 × 64 lanes: exact count, and every lane's
/// successful CAS saw a distinct old value.
fn cas_contention<T: Num, O: Ordering>() {
    let g = Global::new(T::n(0));
    let won: Vec<Global<u32>> = (0..256).map(|_| Global::new(0)).collect();
    run(4, 64, &|| {
        let a = g.r::<Device>();
        let mut cur = a.load(Relaxed);
        loop {
            // Every lane adds one: the value is the count so far.
            let next = (0..=256).map(T::n).position(|v| v == cur).unwrap() as i64 + 1;
            match a.compare_exchange(cur, T::n(next), O::default()) {
                Ok(_) => break,
                Err(now) => cur = now,
            }
        }
        let old = (0..256).map(T::n).position(|v| v == cur).unwrap();
        won[old].r::<Device>().fetch_add(1u32, Relaxed);
    });
    assert_eq!(g.get(), T::n(256));
    assert!(
        won.into_iter().all(|w| w.get() == 1),
        "each old value won once"
    );
}

/// `fetch_add`/`fetch_sub` from 4 × 64 lanes: exact totals (integer-valued
/// floats add exactly).
fn add_sub<T: Num + AtomicArith, O: Ordering>() {
    let g = Global::new(T::n(10));
    run(1, 1, &|| {
        let a = g.r::<Block>();
        assert_eq!(a.fetch_add(T::n(5), O::default()), T::n(10));
        assert_eq!(a.fetch_sub(T::n(20), O::default()), T::n(15));
    });
    assert_eq!(g.get(), T::n(-5));

    let g = Global::new(T::n(0));
    run(4, 64, &|| {
        let i = gid() as i64;
        let a = g.r::<Device>();
        a.fetch_add(T::n(i + 3), O::default());
        a.fetch_sub(T::n(1), O::default());
    });
    assert_eq!(g.get(), T::n((0..256).map(|i| i + 2).sum()));
}

/// Bitwise ops and min/max, with their signedness, alone and contended.
fn integer<T: Num + AtomicInteger, O: Ordering>(signed: bool) {
    let o = O::default();
    let g = Global::new(T::n(0b1100));
    run(1, 1, &|| {
        let a = g.r::<Cluster>();
        assert_eq!(a.fetch_and(T::n(0b1010), o), T::n(0b1100));
        assert_eq!(a.fetch_or(T::n(0b0001), o), T::n(0b1000));
        assert_eq!(a.fetch_xor(T::n(0b1111), o), T::n(0b1001));
        assert_eq!(a.load(Relaxed), T::n(0b0110));
        // -1 is the smallest for a signed type, the largest for an unsigned one.
        assert_eq!(a.fetch_min(T::n(-1), o), T::n(6));
        let after_min = a.load(Relaxed);
        assert_eq!(after_min, if signed { T::n(-1) } else { T::n(6) });
        assert_eq!(a.fetch_max(T::n(2), o), after_min);
        assert_eq!(a.load(Relaxed), T::n(if signed { 2 } else { 6 }));
        assert_eq!(a.fetch_max(T::n(-1), o), T::n(if signed { 2 } else { 6 }));
        assert_eq!(a.load(Relaxed), T::n(if signed { 2 } else { -1 }));
    });

    // 256 lanes: or sets bit (i % 31), and clears bit 31 of the and-word
    // only for lane 7, xor toggles 256 times (back to the start); min/max of
    // values around zero.
    let or = Global::new(T::n(0));
    let and = Global::new(T::n(-1));
    let xor = Global::new(T::n(0x55));
    let min = Global::new(T::n(100));
    let max = Global::new(T::n(-100));
    run(4, 64, &|| {
        let i = gid() as i64;
        or.r::<Device>().fetch_or(T::n(1 << (i % 31)), o);
        and.r::<Device>()
            .fetch_and(T::n(if i == 7 { !(1 << 30) } else { -1 }), o);
        xor.r::<Device>().fetch_xor(T::n(0xff), o);
        min.r::<Device>().fetch_min(T::n(i - 50), o);
        max.r::<Device>().fetch_max(T::n(i - 50), o);
    });
    assert_eq!(or.get(), T::n((1 << 31) - 1));
    assert_eq!(and.get(), T::n(!(1 << 30)));
    assert_eq!(xor.get(), T::n(0x55));
    // Signed: -50 and 205. Unsigned: -50 wraps to the largest values, so the
    // minimum is 0 and the maximum is the wrapped -1.
    assert_eq!(min.get(), T::n(if signed { -50 } else { 0 }));
    assert_eq!(max.get(), T::n(if signed { 205 } else { -1 }));
}

/// `atomicInc`/`atomicDec` wraparound alone, and as a ticket dispenser for
/// 4 × 64 lanes: every ticket drawn once, and the counter wraps back to 0.
fn inc_dec<O: Ordering>() {
    let o = O::default();
    let g = Global::new(0u32);
    run(1, 1, &|| {
        let a = g.r::<Device>();
        let olds: Vec<u32> = (0..6).map(|_| a.fetch_inc(3, o)).collect();
        assert_eq!(olds, [0, 1, 2, 3, 0, 1], "inc wraps to 0 after the limit");
        a.store(0, Relaxed);
        let olds: Vec<u32> = (0..5).map(|_| a.fetch_dec(2, o)).collect();
        assert_eq!(olds, [0, 2, 1, 0, 2], "dec wraps from 0 to the limit");
        a.store(9, Relaxed);
        assert_eq!(a.fetch_dec(2, o), 9);
        assert_eq!(
            a.load(Relaxed),
            2,
            "dec above the limit resets to the limit"
        );
        a.store(9, Relaxed);
        assert_eq!(a.fetch_inc(2, o), 9);
        assert_eq!(a.load(Relaxed), 0, "inc at or above the limit resets to 0");
    });

    let g = Global::new(0u32);
    let got: Vec<Global<u32>> = (0..256).map(|_| Global::new(0)).collect();
    run(4, 64, &|| {
        let t = g.r::<Device>().fetch_inc(255, o);
        got[t as usize].r::<Device>().fetch_add(1, Relaxed);
    });
    assert_eq!(g.get(), 0, "the last ticket wraps the counter");
    assert!(got.into_iter().all(|c| c.get() == 1));
}

macro_rules! suites {
    ($($name:ident: $t:ty, $signed:tt);* $(;)?) => {$(
        mod $name {
            use super::*;
            #[test]
            fn loads_and_stores() {
                load_store::<$t, Relaxed, Relaxed>();
                load_store::<$t, Acquire, Release>();
                load_store::<$t, SeqCst, SeqCst>();
                load_store::<$t, Relaxed, Release>();
                load_store::<$t, Acquire, SeqCst>();
                load_store::<$t, SeqCst, Relaxed>();
            }
            #[test]
            fn exchange_and_cas() {
                exchange_cas::<$t, Relaxed>();
                exchange_cas::<$t, Acquire>();
                exchange_cas::<$t, Release>();
                exchange_cas::<$t, AcqRel>();
                exchange_cas::<$t, SeqCst>();
            }
            #[test]
            fn cas_under_contention() {
                cas_contention::<$t, Relaxed>();
                cas_contention::<$t, AcqRel>();
                cas_contention::<$t, SeqCst>();
            }
            #[test]
            fn add_and_sub() {
                add_sub::<$t, Relaxed>();
                add_sub::<$t, Acquire>();
                add_sub::<$t, Release>();
                add_sub::<$t, AcqRel>();
                add_sub::<$t, SeqCst>();
            }
            suites!(@int $t, $signed);
        }
    )*};
    (@int $t:ty, none) => {};
    (@int $t:ty, $signed:tt) => {
        #[test]
        fn bitwise_min_max() {
            integer::<$t, Relaxed>($signed);
            integer::<$t, Acquire>($signed);
            integer::<$t, Release>($signed);
            integer::<$t, AcqRel>($signed);
            integer::<$t, SeqCst>($signed);
        }
    };
}

suites! {
    u32s: u32, false;
    i32s: i32, true;
    u64s: u64, false;
    i64s: i64, true;
    f32s: f32, none;
    f64s: f64, none;
}

#[test]
fn inc_dec_every_ordering() {
    inc_dec::<Relaxed>();
    inc_dec::<Acquire>();
    inc_dec::<Release>();
    inc_dec::<AcqRel>();
    inc_dec::<SeqCst>();
}

/// The classic CUDA names: relaxed, device scope, CUDA's results.
#[test]
fn classic_names() {
    let g = Global::new(10u32);
    let f = Global::new(1.5f32);
    let s = Global::new(-3i64);
    run(1, 1, &|| {
        let p = g.0.get();
        // SAFETY: the cells outlive the launch; one lane.
        unsafe {
            assert_eq!(atomic_cas(p, 10, 11), 10);
            assert_eq!(
                atomic_cas(p, 10, 12),
                11,
                "failed atomicCAS returns the current value"
            );
            assert_eq!(atomic_exch(p, 4), 11);
            assert_eq!(atomic_sub(p, 1), 4);
            assert_eq!(atomic_min(p, 2), 3);
            assert_eq!(atomic_max(p, 8), 2);
            assert_eq!(atomic_and(p, 12), 8);
            assert_eq!(atomic_or(p, 3), 8);
            assert_eq!(atomic_xor(p, 1), 11);
            assert_eq!(atomic_inc(p, 10), 10);
            assert_eq!(atomic_dec(p, 10), 0);
            assert_eq!(atomic_exch(f.0.get(), 2.5), 1.5);
            assert_eq!(atomic_min(s.0.get(), -4), -3);
            assert_eq!(atomic_max(s.0.get(), 7), -4);
        }
        fence(AcqRel, Block);
        fence(Acquire, Cluster);
        fence(Release, Device);
        fence(SeqCst, System);
        threadfence();
        threadfence_block();
        threadfence_system();
    });
    assert_eq!(g.get(), 10);
    assert_eq!(s.get(), 7);
}

/// Block-scope atomics on shared memory: 256 lanes count into a shared
/// word, then one lane copies it out.
#[test]
fn shared_memory_counter() {
    let out = Global::new(0u32);
    run(3, 256, &|| {
        let block = this_thread_block();
        let s = shared_array!(u32; 2);
        if block.thread_rank() == 0 {
            s.store(0, 0);
            s.store(1, 0);
        }
        block.sync();
        // SAFETY: the shared words live for the block and are accessed
        // atomically between the barriers.
        let (c, m) = unsafe {
            (
                AtomicRef::<u32, Block>::from_ptr(s.as_ptr()),
                AtomicRef::<u32, Block>::from_ptr(s.as_ptr().add(1)),
            )
        };
        c.fetch_add(1, Relaxed);
        m.fetch_max(block.thread_rank(), AcqRel);
        block.sync();
        if block.thread_rank() == 0 {
            out.r::<Device>()
                .fetch_add(c.load(Relaxed) + m.load(Relaxed), Relaxed);
        }
    });
    assert_eq!(out.get(), 3 * (256 + 255));
}

/// The flag handshake between warps of a block and between blocks:
/// producers write data and publish a flag with a release store; consumers
/// spin with acquire loads (and `nanosleep`) and then read the data.
#[test]
fn flag_handshake() {
    let data: Vec<Global<u64>> = (0..4).map(|_| Global::new(0)).collect();
    let flags: Vec<Global<u32>> = (0..4).map(|_| Global::new(0)).collect();
    let got: Vec<Global<u64>> = (0..4).map(|_| Global::new(0)).collect();
    // Two blocks of two warps: warp 0 produces for warp 1 of its block.
    run(2, 64, &|| {
        let b = block_idx().x as usize;
        match thread_idx().x {
            0 => {
                data[b].r::<Block>().store(1000 + b as u64, Relaxed);
                flags[b].r::<Block>().store(1, Release);
            }
            32 => {
                while flags[b].r::<Block>().load(Acquire) == 0 {
                    nanosleep(32);
                }
                let d = data[b].r::<Block>().load(Relaxed);
                got[b].r::<Device>().store(d, Relaxed);
            }
            _ => {}
        }
    });
    // Block 0 produces for block 1 through device-scope atomics.
    run(2, 32, &|| {
        if thread_idx().x == 0 {
            if block_idx().x == 0 {
                data[2].r::<Device>().store(77, Relaxed);
                flags[2].r::<Device>().store(1, SeqCst);
            } else {
                while flags[2].r::<Device>().load(SeqCst) == 0 {
                    nanosleep(32);
                }
                got[2]
                    .r::<Device>()
                    .store(data[2].r::<Device>().load(Relaxed), Relaxed);
            }
        }
    });
    let got: Vec<u64> = got.into_iter().map(Global::get).collect();
    assert_eq!(got, [1000, 1001, 77, 0]);
}

/// A ticket lock (fetch_inc tickets, acquire spin on the turn, release
/// handover) guards a non-atomic read-modify-write that pauses in the
/// middle: with 128 lanes the count is exact only if the lock excludes.
#[test]
fn ticket_lock_excludes() {
    let next = Global::new(0u32);
    let turn = Global::new(0u32);
    let count = Global::new(0u64);
    let order = Global::new(0u64);
    run(1, 128, &|| {
        let me = next.r::<Device>().fetch_inc(u32::MAX, Relaxed);
        while turn.r::<Device>().load(Acquire) != me {
            nanosleep(16);
        }
        // Critical section: a plain read, a pause, a plain write.
        let p = count.0.get();
        // SAFETY: the lock gives this lane exclusive access to `count`.
        let v = unsafe { p.read() };
        nanosleep(16);
        // SAFETY: as above.
        unsafe { p.write(v + 1) };
        // Tickets are served in order: check it.
        let o = order.r::<Device>().fetch_add(1, Relaxed);
        assert_eq!(o, me as u64, "tickets are served in order");
        turn.r::<Device>().store(me + 1, Release);
    });
    assert_eq!(count.get(), 128);
}

/// Without the lock the same critical section loses updates: the test
/// above can fail.
#[test]
fn the_critical_section_races_without_the_lock() {
    let count = Global::new(0u64);
    run(1, 128, &|| {
        let p = count.0.get();
        // SAFETY: deliberately racy on the simulator's single OS thread
        // (each access is a whole, aligned word).
        let v = unsafe { p.read_volatile() };
        nanosleep(16);
        // SAFETY: as above.
        unsafe { p.write_volatile(v + 1) };
    });
    assert!(count.get() < 128, "the lanes interleave inside the section");
}

/// A spin on a flag that nobody sets is reported as a livelock, not a hang:
/// the acquire load gives up the lane's turn.
#[test]
fn endless_spin_is_a_livelock() {
    let flag = Global::new(0u32);
    let r = launch(&LaunchConfig::new(1, 32), &|| {
        if thread_idx().x == 0 {
            while flag.r::<Device>().load(Acquire) == 0 {}
        }
    });
    match r {
        Err(SimError::Deadlock(rep)) => {
            assert!(rep.summary.contains("livelock"), "{}", rep.summary)
        }
        other => panic!("expected a livelock report, got {other:?}"),
    }
}

/// `red`: every operation without a result, relaxed and release, contended
/// by 256 lanes, gives the totals of its `fetch_` twin.
fn reds<T: Num + AtomicInteger, O: cooperative_groups::atomic::RedOrdering>(signed: bool) {
    let o = O::default();
    let (add, or, and, xor, min, max) = (
        Global::new(T::n(0)),
        Global::new(T::n(0)),
        Global::new(T::n(-1)),
        Global::new(T::n(0x55)),
        Global::new(T::n(100)),
        Global::new(T::n(-100)),
    );
    run(4, 64, &|| {
        let i = gid() as i64;
        add.r::<Device>().red_add(T::n(i + 3), o);
        add.r::<Device>().red_sub(T::n(1), o);
        or.r::<Device>().red_or(T::n(1 << (i % 31)), o);
        and.r::<Device>()
            .red_and(T::n(if i == 7 { !(1 << 30) } else { -1 }), o);
        xor.r::<System>().red_xor(T::n(0xff), o);
        min.r::<Device>().red_min(T::n(i - 50), o);
        max.r::<Device>().red_max(T::n(i - 50), o);
    });
    assert_eq!(add.get(), T::n((0..256).map(|i| i + 2).sum()));
    assert_eq!(or.get(), T::n((1 << 31) - 1));
    assert_eq!(and.get(), T::n(!(1 << 30)));
    assert_eq!(xor.get(), T::n(0x55));
    assert_eq!(min.get(), T::n(if signed { -50 } else { 0 }));
    assert_eq!(max.get(), T::n(if signed { 205 } else { -1 }));
}

#[test]
fn red_every_integer_type_and_ordering() {
    reds::<u32, Relaxed>(false);
    reds::<i32, Release>(true);
    reds::<u64, Release>(false);
    reds::<i64, Relaxed>(true);
    // Floats add; `inc`/`dec` wrap as `fetch_inc`/`fetch_dec` do.
    let f = Global::new(0.0f64);
    let c = Global::new(0u32);
    let d = Global::new(0u32);
    run(2, 64, &|| {
        f.r::<Device>().red_add(0.5, Release);
        c.r::<Device>().red_inc(99, Relaxed);
        d.r::<Device>().red_dec(99, Relaxed);
    });
    assert_eq!(f.get(), 64.0);
    assert_eq!(c.get(), 128 % 100);
    // 0 → 99 → 98 … : 128 decrements from 0 with limit 99 end at 99 - 27.
    assert_eq!(d.get(), 72);
}
