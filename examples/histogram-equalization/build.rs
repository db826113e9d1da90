//! Builds the kernel crate to PTX (one module per SM; `CG_SMS=90` for one).
fn main() {
    cg_build::KernelCrate::at("kernels")
        .build()
        .unwrap_or_else(|e| e.fail());
}
