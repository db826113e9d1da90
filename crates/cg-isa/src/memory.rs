//! Operands of the strong memory operations (atomics, `ld`/`st` with a
//! `.sem`, `fence`): [`MemScope`] and [`MemOrder`] (PTX ISA, memory
//! consistency model).

/// The scope of a strong memory operation or fence (PTX `.scope`): the
/// threads it may synchronise with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemScope {
    /// `.cta`: the threads of the block (`cuda::thread_scope_block`).
    Cta,
    /// `.cluster`: the threads of the block's cluster
    /// (`cuda::thread_scope_cluster`; sm_90, where older GPUs, which have no
    /// clusters, use `.gpu`).
    Cluster,
    /// `.gpu`: every thread of the device (`cuda::thread_scope_device`).
    Gpu,
    /// `.sys`: the device, the host and peer devices
    /// (`cuda::thread_scope_system`).
    Sys,
}

/// The memory ordering of a strong operation (PTX `.sem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemOrder {
    /// `.relaxed` (also `.volatile`, which PTX treats as `.relaxed.sys`).
    Relaxed,
    /// `.acquire`.
    Acquire,
    /// `.release`.
    Release,
    /// `.acq_rel`.
    AcqRel,
    /// `fence.sc` followed by the operation (`.acquire` for loads and
    /// read-modify-writes, `.relaxed` for stores), as libcu++ lowers
    /// `memory_order_seq_cst`.
    SeqCst,
}
