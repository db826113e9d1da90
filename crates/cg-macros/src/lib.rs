//! Procedural macros behind `cooperative_groups::kernel` and
//! `cooperative_groups::shared_array!`.
//!
//! Use them through the `cooperative-groups` crate, which re-exports both; the
//! expansions name `::cooperative_groups` paths.

use proc_macro::TokenStream;
use quote::{format_ident, quote};
use std::sync::atomic::{AtomicUsize, Ordering};
use syn::parse::{Parse, ParseStream};
use syn::{FnArg, ItemFn, Pat, Token, Type, parse_macro_input};

/// Turns one Rust function into a kernel for both backends.
///
/// On `nvptx64` the function becomes a PTX entry (`extern "gpu-kernel"`, unmangled).
/// On the host it stays a plain `unsafe fn` that the simulator runs once per
/// lane, and a launch descriptor `NAME_IN_UPPER_CASE: Kernel<(args…)>` is added
/// beside it so that one launch call can target either backend.
///
/// Parameters must be plain identifiers of `Copy` types that have the same
/// layout on host and device (integers, floats, raw pointers). The
/// descriptor records the defining crate (`CARGO_CRATE_NAME`), so a GPU
/// module built from another crate refuses it.
///
/// # Generic kernels
///
/// A PTX entry is monomorphic, so a generic kernel names its instances —
/// the `template <int N> __global__` of CUDA C++ with its explicit
/// instantiations (`ignore`: this proc-macro crate cannot depend on
/// `cooperative-groups`, which the expansion names; `cg-kernels` compiles
/// such instances, e.g. in `src/sync.rs`):
///
/// ```ignore
/// #[kernel(instances(8, 16, 32))]
/// pub fn tile_sums<const N: u32>(out: *mut u32) where Size<N>: WarpTileSize { /* … */ }
/// ```
///
/// makes kernels `tile_sums_8`, `tile_sums_16`, `tile_sums_32` (PTX entries
/// of those names, descriptors `TILE_SUMS_8`, …) that call
/// `tile_sums::<8>`, …; the generic function stays callable, as an `unsafe
/// fn` like every kernel's host body. An instance
/// with several arguments is a tuple, `instances((f32, 8), (u32, 32))`, and
/// its name joins them: `NAME_f32_8`. In each argument, every run of
/// characters other than ASCII letters and digits becomes one `_`.
///
/// # Launch bounds
///
/// `#[kernel(launch_bounds(MAX_THREADS))]` or
/// `#[kernel(launch_bounds(MAX_THREADS, MIN_BLOCKS))]` (integer literals;
/// beside `instances(…)` they hold for every instance) is CUDA's
/// `__launch_bounds__(MAX_THREADS, MIN_BLOCKS)`: cg-build declares
/// `.maxntid MAX_THREADS, 1, 1` (and `.minnctapersm MIN_BLOCKS`) in the
/// PTX entry, so ptxas budgets registers for `MIN_BLOCKS` resident blocks
/// of `MAX_THREADS` threads (spilling if it must), and the descriptor
/// records them (`Kernel::launch_bounds`): a launch of a larger block is
/// refused with the kernel's name, by cg-runtime on both backends and by
/// `cooperative_groups::host`, as the GPU would refuse it.
///
/// `#[kernel(launch_bounds(MAX_THREADS, MIN_BLOCKS, sm_NN))]` asks for
/// `MIN_BLOCKS` only in the PTX built for `sm_NN`
/// (`cfg(target_feature = "sm_NN")`); the PTX of the other SMs declares
/// `.maxntid` alone. CUDA code does this with `__CUDA_ARCH__` (CUB's
/// tuning policies are per architecture): how many blocks fit on an SM
/// depends on its shared memory and register file, and a bound that one
/// SM meets may make ptxas spill on another.
///
/// ```ignore
/// #[kernel(launch_bounds(256, 3))]
/// pub fn pass(keys: GlobalSlice<u32>, out: OwnedSlice<u32>) { /* … */ }
/// ```
///
/// # Block shape
///
/// `#[kernel(block_dim(X))]`, `block_dim(X, Y)` or `block_dim(X, Y, Z)`
/// (integer literals; the dimensions left out are 1) declares the one
/// block shape the kernel runs with: cg-build declares `.reqntid X, Y, Z`
/// in the PTX entry, so the driver refuses a launch of any other shape,
/// and so do cg-runtime (both backends) and `cooperative_groups::host`,
/// naming the kernel. Inside the kernel the shape is then a fact the
/// compiler knows: the block's size and a thread's rank are constants and
/// `%tid.x` (a 1-D block), so `this_thread_block().with_threads::<X>()`
/// checks nothing at run time and `thread_rank()` reads one register —
/// what a CUDA kernel written for `blockDim.x == X` costs, without its
/// silent wrong answers for another block. Beside `launch_bounds`, whose
/// MAX_THREADS must then be X·Y·Z, it adds `.minnctapersm` (ptxas refuses
/// `.maxntid` beside `.reqntid`).
///
/// ```ignore
/// #[kernel(block_dim(256), launch_bounds(256, 8))]
/// pub fn pass(keys: GlobalSlice<u32>, out: OwnedSlice<u32>) { /* … */ }
/// ```
///
/// # Registers
///
/// `#[kernel(max_registers(N))]` (16 to 255) is CUDA's `__maxnreg__(N)`:
/// cg-build declares `.maxnreg N` in the PTX entry, and ptxas keeps the
/// kernel's threads to N registers (spilling if it must). Where
/// `launch_bounds` asks for blocks per SM and lets ptxas derive the
/// budget, this names it: a block of 128 threads cannot ask for more than
/// 16 blocks per SM, and so not for fewer than 32 registers that way.
///
/// # Fast math
///
/// `#[kernel(fast_math)]` is nvcc's `--use_fast_math` for this kernel:
/// in its body, method calls `x.exp()`, `x.exp10()`, `x.ln()`,
/// `x.log2()`, `x.log10()`, `x.sin()`, `x.cos()`, `x.tan()`,
/// `x.sin_cos()`, `x.powf(y)`, `x.tanh()`, `x.rsqrt()` become
/// `cooperative_groups::math::fast::FastMath` calls (the intrinsics
/// `__expf`, `__logf`, `__sinf`, …, for `f32`; another type's method of
/// such a name does not compile, and is called by its path instead), and
/// calls of CUDA's names (`expf`, `exp10f`, `logf`, `log2f`, `log10f`,
/// `sinf`, `cosf`, `tanf`, `sincosf`, `powf`, `tanhf`, `rsqrtf`, by the
/// last segment of the path) become `math::fast`'s. cg-build then rewrites
/// the entry's PTX: `f32` division `div.full.ftz`, `1 / x`
/// `rcp.approx.ftz`, `sqrt` `sqrt.approx.ftz`, `.ftz` on every `f32`
/// instruction (`-prec-div=false -prec-sqrt=false -ftz=true`). Macro
/// invocations and the functions the kernel calls keep their math calls;
/// the simulator runs the intrinsics' host models with exact `/` and
/// `sqrt`. The guide's math chapter ("Fast math") has the details.
///
/// ```ignore
/// #[kernel(fast_math)]
/// pub fn gelu(x: GlobalSlice<f32>, out: OwnedSlice<f32>) { /* x.tanh(): tanh.approx.f32 */ }
/// ```
///
/// # What a kernel crate needs
///
/// A library crate, `#![no_std]`, that depends on `cooperative-groups` and
/// starts with
/// `#![cfg_attr(target_arch = "nvptx64", feature(abi_gpu_kernel, asm_experimental_arch))]`
/// (the PTX entry ABI and inline PTX are unstable); the host crate that
/// launches its kernels builds it to PTX with `cg-build` in its `build.rs`
/// (a nightly toolchain with `rust-src`), and depends on it as an ordinary
/// crate for the descriptors and the simulator. `cargo cg new` writes both.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut func = parse_macro_input!(item as ItemFn);
    let result = syn::parse::<KernelAttr>(attr).inspect(|a| {
        if a.shape.fast_math {
            syn::visit_mut::VisitMut::visit_block_mut(&mut FastMathRewrite, &mut func.block);
        }
    });
    let result = result.and_then(|a| match a.instances {
        None => expand_kernel(func, a.shape),
        Some(inst) => expand_generic(func, inst, a.shape),
    });
    match result {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// `launch_bounds(MAX_THREADS)` or `launch_bounds(MAX_THREADS,
/// MIN_BLOCKS)`: CUDA's `__launch_bounds__`, as integer literals; with
/// `sm_NN` after them, `MIN_BLOCKS` holds for that SM's PTX only.
#[derive(Clone)]
struct Bounds {
    max_threads: u32,
    min_blocks: u32,
    /// `sm_NN`: the target feature under which `min_blocks` applies.
    only_on: Option<String>,
}

/// What a kernel's PTX entry declares: `launch_bounds(…)`,
/// `block_dim(…)` and `max_registers(…)`, each optional.
#[derive(Clone, Default)]
struct BlockShape {
    bounds: Option<Bounds>,
    /// `block_dim(X, Y, Z)`: the one block shape of every launch.
    block_dim: Option<[u32; 3]>,
    /// `max_registers(N)`: `.maxnreg N`.
    max_registers: Option<u32>,
    /// `fast_math`: the body's math calls mapped to the fast intrinsics,
    /// and the entry marked for cg-build's fast-math rewrite of its PTX.
    fast_math: bool,
}

/// The attribute's arguments: `instances(…)`, `launch_bounds(…)`,
/// `block_dim(…)` and `max_registers(…)`, each at most once, in any order.
struct KernelAttr {
    instances: Option<Instances>,
    shape: BlockShape,
}

/// `block_dim(X)`, `block_dim(X, Y)` or `block_dim(X, Y, Z)`: integer
/// literals, a block CUDA allows (x, y ≤ 1024, z ≤ 64, at most 1024
/// threads); the dimensions left out are 1.
fn parse_block_dim(kw: &syn::Ident, input: ParseStream) -> syn::Result<[u32; 3]> {
    input.parse::<syn::Ident>()?;
    let content;
    syn::parenthesized!(content in input);
    let args = content.parse_terminated(syn::LitInt::parse, Token![,])?;
    if args.is_empty() || args.len() > 3 {
        return Err(syn::Error::new(
            kw.span(),
            "`block_dim(X)`, `block_dim(X, Y)` or `block_dim(X, Y, Z)`",
        ));
    }
    let mut dim = [1u32; 3];
    for (i, a) in args.iter().enumerate() {
        dim[i] = a.base10_parse()?;
        let most = if i == 2 { 64 } else { 1024 };
        if !(1..=most).contains(&dim[i]) {
            return Err(syn::Error::new(
                a.span(),
                format!("a block's {} extent is 1 to {most}", ["x", "y", "z"][i]),
            ));
        }
    }
    if dim.iter().product::<u32>() > 1024 {
        return Err(syn::Error::new(
            kw.span(),
            "a block has at most 1024 threads",
        ));
    }
    Ok(dim)
}

impl Parse for KernelAttr {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut attr = KernelAttr {
            instances: None,
            shape: BlockShape::default(),
        };
        let mut dim_kw = None;
        while !input.is_empty() {
            let kw: syn::Ident = input.fork().parse()?;
            if kw == "fast_math" && !attr.shape.fast_math {
                input.parse::<syn::Ident>()?;
                attr.shape.fast_math = true;
            } else if kw == "instances" && attr.instances.is_none() {
                attr.instances = Some(input.parse()?);
            } else if kw == "max_registers" && attr.shape.max_registers.is_none() {
                input.parse::<syn::Ident>()?;
                let content;
                syn::parenthesized!(content in input);
                let n: syn::LitInt = content.parse()?;
                let regs = n.base10_parse::<u32>()?;
                if !(16..=255).contains(&regs) || !content.is_empty() {
                    return Err(syn::Error::new(
                        n.span(),
                        "`max_registers(N)`: N from 16 to 255 registers per thread",
                    ));
                }
                attr.shape.max_registers = Some(regs);
            } else if kw == "block_dim" && attr.shape.block_dim.is_none() {
                attr.shape.block_dim = Some(parse_block_dim(&kw, input)?);
                dim_kw = Some(kw);
            } else if kw == "launch_bounds" && attr.shape.bounds.is_none() {
                input.parse::<syn::Ident>()?;
                let content;
                syn::parenthesized!(content in input);
                let args = content.parse_terminated(BoundsArg::parse, Token![,])?;
                let arity = || {
                    syn::Error::new(
                        kw.span(),
                        "`launch_bounds(MAX_THREADS)`, `launch_bounds(MAX_THREADS, MIN_BLOCKS)` \
                         or `launch_bounds(MAX_THREADS, MIN_BLOCKS, sm_NN)`",
                    )
                };
                let mut vals = Vec::new();
                let mut only_on = None;
                for (i, a) in args.iter().enumerate() {
                    match a {
                        BoundsArg::Int(l) if only_on.is_none() => {
                            vals.push(l.base10_parse::<u32>()?)
                        }
                        BoundsArg::Sm(sm) if i == 2 => only_on = Some(sm.to_string()),
                        BoundsArg::Sm(sm) => {
                            return Err(syn::Error::new(
                                sm.span(),
                                "`sm_NN` comes third, after MAX_THREADS and MIN_BLOCKS",
                            ));
                        }
                        BoundsArg::Int(_) => return Err(arity()),
                    }
                }
                let (max_threads, min_blocks) = match vals[..] {
                    [t] => (t, 0),
                    [t, b] => (t, b),
                    _ => return Err(arity()),
                };
                if !(1..=1024).contains(&max_threads) {
                    return Err(syn::Error::new(
                        args[0].span(),
                        "a block has 1 to 1024 threads",
                    ));
                }
                attr.shape.bounds = Some(Bounds {
                    max_threads,
                    min_blocks,
                    only_on,
                });
            } else {
                return Err(syn::Error::new(
                    kw.span(),
                    "expected `#[kernel]`, `#[kernel(instances(…))]`, `#[kernel(launch_bounds(…))]`, \
                     `#[kernel(block_dim(…))]`, `#[kernel(max_registers(…))]` or \
                     `#[kernel(fast_math)]` (each once)",
                ));
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        // With `block_dim`, `launch_bounds` only adds MIN_BLOCKS: the PTX
        // entry declares `.reqntid`, which ptxas refuses beside `.maxntid`.
        if let (Some(dim), Some(b), Some(kw)) = (attr.shape.block_dim, &attr.shape.bounds, &dim_kw)
        {
            let threads: u32 = dim.iter().product();
            if b.max_threads != threads {
                return Err(syn::Error::new(
                    kw.span(),
                    format!(
                        "beside `block_dim` (a block of {threads} threads), `launch_bounds` declares \
                         MAX_THREADS = {threads}, not {}",
                        b.max_threads
                    ),
                ));
            }
        }
        Ok(attr)
    }
}

/// One argument of `launch_bounds(…)`: an integer literal, or the
/// `sm_NN` that limits `MIN_BLOCKS` to one SM's PTX.
enum BoundsArg {
    Int(syn::LitInt),
    Sm(syn::Ident),
}

impl BoundsArg {
    fn span(&self) -> proc_macro2::Span {
        match self {
            BoundsArg::Int(l) => l.span(),
            BoundsArg::Sm(id) => id.span(),
        }
    }
}

impl Parse for BoundsArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(syn::LitInt) {
            return Ok(BoundsArg::Int(input.parse()?));
        }
        let id: syn::Ident = input.parse()?;
        let digits = id.to_string();
        match digits.strip_prefix("sm_") {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => {
                Ok(BoundsArg::Sm(id))
            }
            _ => Err(syn::Error::new(
                id.span(),
                "expected an integer literal or `sm_NN` (e.g. `sm_90`)",
            )),
        }
    }
}

/// `instances(A, (B, C), …)`: the generic arguments of each instance.
struct Instances(Vec<Vec<syn::GenericArgument>>);

impl Parse for Instances {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let kw: syn::Ident = input.parse()?;
        if kw != "instances" {
            return Err(syn::Error::new(
                kw.span(),
                "expected `#[kernel]` or `#[kernel(instances(…))]`",
            ));
        }
        let content;
        syn::parenthesized!(content in input);
        let mut all = Vec::new();
        while !content.is_empty() {
            let args = if content.peek(syn::token::Paren) {
                let inner;
                syn::parenthesized!(inner in content);
                inner
                    .parse_terminated(syn::GenericArgument::parse, Token![,])?
                    .into_iter()
                    .collect()
            } else {
                vec![content.parse::<syn::GenericArgument>()?]
            };
            all.push(args);
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        if all.is_empty() {
            return Err(syn::Error::new(
                kw.span(),
                "`instances(…)` lists at least one instance",
            ));
        }
        Ok(Instances(all))
    }
}

/// The entry name of an instance: the function's name, then each generic
/// argument's tokens with every run of other characters than ASCII letters
/// and digits turned into one `_` (`sum::<f32, 8>` → `sum_f32_8`).
fn instance_name(base: &str, args: &[syn::GenericArgument]) -> String {
    let mut name = base.to_string();
    for a in args {
        let text = quote!(#a).to_string();
        let mut part = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                part.push(c);
            } else if !part.ends_with('_') {
                part.push('_');
            }
        }
        name.push('_');
        name.push_str(part.trim_matches('_'));
    }
    name
}

/// A generic kernel: the function stays an ordinary generic function, and
/// each instance becomes a kernel named by [`instance_name`].
fn expand_generic(
    func: ItemFn,
    inst: Instances,
    shape: BlockShape,
) -> syn::Result<proc_macro2::TokenStream> {
    let sig = &func.sig;
    if sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "`instances(…)` is for generic kernels; this one has no generic parameters",
        ));
    }
    if sig
        .generics
        .params
        .iter()
        .any(|p| matches!(p, syn::GenericParam::Lifetime(_)))
    {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "a kernel cannot have lifetime parameters",
        ));
    }
    let want = sig.generics.params.len();
    let mut out = proc_macro2::TokenStream::new();
    let mut seen = std::collections::HashSet::new();
    for args in &inst.0 {
        if args.len() != want {
            return Err(syn::Error::new_spanned(
                &sig.generics,
                format!("each instance gives {want} generic argument(s), one per parameter"),
            ));
        }
        let name = instance_name(&sig.ident.to_string(), args);
        if !seen.insert(name.clone()) {
            return Err(syn::Error::new_spanned(
                &sig.ident,
                format!("two instances are both named `{name}`"),
            ));
        }
        let ident = format_ident!("{}", name);
        let generic = &sig.ident;
        let mut inner = func.clone();
        inner.attrs = vec![syn::parse_quote!(#[doc = concat!(
            "Instance `", stringify!(#generic), "::<", stringify!(#(#args),*), ">` of the generic kernel [`", stringify!(#generic), "`]."
        )])];
        inner.sig.ident = ident;
        inner.sig.generics = syn::Generics::default();
        // The instance's parameter types name the instance's arguments
        // (`out: *mut T` of `instances(f32)` is `out: *mut f32`).
        let mut subst = Substitute::new(&sig.generics, args);
        for input in inner.sig.inputs.iter_mut() {
            syn::visit_mut::visit_fn_arg_mut(&mut subst, input);
        }
        let names = kernel_params(&func.sig)?.0;
        inner.block = if kernel_params(&func.sig)?.1.iter().any(has_raw_pointer) {
            syn::parse_quote!({
                // SAFETY: the instance's own contract (a kernel's) is the generic function's.
                unsafe { #generic::<#(#args),*>(#(#names),*) }
            })
        } else {
            syn::parse_quote!({ #generic::<#(#args),*>(#(#names),*) })
        };
        out.extend(expand_kernel(inner, shape.clone())?);
    }
    // The generic function itself: a function both backends inline, `unsafe`
    // if a raw pointer parameter makes the kernel `unsafe`.
    let raw = kernel_params(&func.sig)?.1.iter().any(has_raw_pointer);
    let mut generic = func;
    if raw {
        generic.sig.unsafety = Some(Default::default());
    }
    generic.attrs.push(syn::parse_quote!(#[inline(always)]));
    generic
        .attrs
        .push(syn::parse_quote!(#[allow(clippy::missing_safety_doc)]));
    generic
        .attrs
        .push(syn::parse_quote!(#[allow(clippy::too_many_arguments)]));
    out.extend(quote!(#generic));
    Ok(out)
}

/// Replaces a generic function's type and const parameters by one
/// instance's arguments.
struct Substitute {
    types: Vec<(syn::Ident, Type)>,
    consts: Vec<(syn::Ident, syn::Expr)>,
}

impl Substitute {
    fn new(generics: &syn::Generics, args: &[syn::GenericArgument]) -> Substitute {
        let mut s = Substitute {
            types: Vec::new(),
            consts: Vec::new(),
        };
        for (p, a) in generics.params.iter().zip(args) {
            match p {
                syn::GenericParam::Type(t) => {
                    if let syn::GenericArgument::Type(ty) = a {
                        s.types.push((t.ident.clone(), ty.clone()));
                    }
                }
                syn::GenericParam::Const(c) => {
                    let e: syn::Expr = match a {
                        syn::GenericArgument::Const(e) => e.clone(),
                        other => syn::parse_quote!({ #other }),
                    };
                    s.consts.push((c.ident.clone(), e));
                }
                syn::GenericParam::Lifetime(_) => {}
            }
        }
        s
    }

    /// The parameter a path of one plain segment names, if any.
    fn single(path: &syn::Path) -> Option<&syn::Ident> {
        (path.leading_colon.is_none()
            && path.segments.len() == 1
            && path.segments[0].arguments.is_none())
        .then(|| &path.segments[0].ident)
    }

    fn konst(&self, path: &syn::Path) -> Option<syn::Expr> {
        let id = Self::single(path)?;
        self.consts
            .iter()
            .find(|(c, _)| c == id)
            .map(|(_, e)| e.clone())
    }
}

impl syn::visit_mut::VisitMut for Substitute {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(tp) = ty
            && tp.qself.is_none()
            && let Some(id) = Self::single(&tp.path)
            && let Some((_, arg)) = self.types.iter().find(|(t, _)| t == id)
        {
            *ty = arg.clone();
            return;
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::Path(p) = e
            && p.qself.is_none()
            && let Some(v) = self.konst(&p.path)
        {
            *e = syn::parse_quote!({ #v });
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_generic_argument_mut(&mut self, a: &mut syn::GenericArgument) {
        // `Foo<N>` parses `N` as a type: a const parameter there is an expression.
        if let syn::GenericArgument::Type(Type::Path(tp)) = a
            && tp.qself.is_none()
            && let Some(v) = self.konst(&tp.path)
        {
            *a = syn::GenericArgument::Const(syn::parse_quote!({ #v }));
            return;
        }
        syn::visit_mut::visit_generic_argument_mut(self, a);
    }
}

/// The parameters' names and types (plain identifiers only).
fn kernel_params(sig: &syn::Signature) -> syn::Result<(Vec<syn::Ident>, Vec<Type>)> {
    let mut names = Vec::new();
    let mut types: Vec<Type> = Vec::new();
    for arg in &sig.inputs {
        match arg {
            FnArg::Typed(pt) => match &*pt.pat {
                Pat::Ident(id) if id.by_ref.is_none() && id.subpat.is_none() => {
                    names.push(id.ident.clone());
                    types.push((*pt.ty).clone());
                }
                other => {
                    return Err(syn::Error::new_spanned(
                        other,
                        "kernel parameters must be plain identifiers",
                    ));
                }
            },
            FnArg::Receiver(r) => {
                return Err(syn::Error::new_spanned(r, "a kernel cannot take `self`"));
            }
        }
    }
    Ok((names, types))
}

fn expand_kernel(func: ItemFn, shape: BlockShape) -> syn::Result<proc_macro2::TokenStream> {
    let sig = &func.sig;
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.generics,
            "a PTX entry is monomorphic: name the instances, `#[kernel(instances(8, 16, 32))]`, \
             which become kernels `NAME_8`, `NAME_16`, …",
        ));
    }
    if sig.asyncness.is_some() || sig.constness.is_some() || sig.abi.is_some() {
        return Err(syn::Error::new_spanned(
            sig,
            "a kernel is a plain `fn` (no async, const or extern): #[kernel] adds the ABI",
        ));
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        return Err(syn::Error::new_spanned(
            ty,
            "a kernel returns nothing: write results through pointer parameters",
        ));
    }
    let (names, types) = kernel_params(sig)?;
    let attrs = &func.attrs;
    let vis = &func.vis;
    let ident = &sig.ident;
    let inputs = &sig.inputs;
    let body = &func.block;
    let desc = format_ident!("{}", ident.to_string().to_uppercase());
    let name_lit = ident.to_string();
    let name_lits: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let doc = format!(
        "Launch descriptor of the kernel [`{name_lit}`]: its PTX entry name and its host body for the simulator."
    );
    // A raw pointer parameter makes the kernel an `unsafe fn` (its body may
    // dereference what the launcher passed) and its launch `unsafe`; with
    // typed parameters only it is safe, and each parameter must be
    // `SafeParam` (a pointer hidden behind an alias does not compile).
    let raw = types.iter().any(has_raw_pointer);
    // The body gets each parameter in the scope of one call (a borrow of a
    // local): a view whose lifetime the signature names `'static` (even
    // through an alias) does not compile, so no body keeps a view past its
    // launch.
    let scoped: Vec<proc_macro2::TokenStream> = names
        .iter()
        .map(|n| quote!(::cooperative_groups::global::KernelParam::scoped(#n, &__cg_launch_scope)))
        .collect();
    let scope = quote! {
        let __cg_launch_scope = ::cooperative_groups::global::LaunchScope::new();
    };
    let (unsafety, call, safe_check) = if raw {
        (
            quote!(unsafe),
            quote! {
                #scope
                // SAFETY: the launcher passes the arguments the kernel was declared
                // with; an `unsafe` launch carries the kernel's contract.
                unsafe { #ident(#(#scoped),*) }
            },
            quote!(),
        )
    } else {
        (
            quote!(),
            quote!({
                #scope
                #ident(#(#scoped),*)
            }),
            quote! {
                #[cfg(not(target_arch = "nvptx64"))]
                const _: fn() = || {
                    fn safe_param<P: ::cooperative_groups::SafeParam>() {}
                    #(safe_param::<#types>();)*
                };
            },
        )
    };
    // On the GPU each parameter first goes through `KernelParam::at_entry`
    // with the generic address of its bytes in parameter space (`mov` of
    // the PTX parameter's name, `cvta.param`): the tensor maps keep it, to
    // be read in place as nvcc's `__grid_constant__` parameters are (the
    // comment in the `asm` tells cg-build to align that parameter to 64
    // bytes, which rustc cannot declare); for every other type the
    // closure is never called and the `asm` is dropped.
    let entry_inputs: Vec<proc_macro2::TokenStream> = names
        .iter()
        .zip(&types)
        .map(|(n, t)| quote!(#n: #t))
        .collect();
    let prologue: Vec<proc_macro2::TokenStream> = sig
        .inputs
        .iter()
        .zip(names.iter().zip(&types))
        .enumerate()
        .map(|(i, (arg, (n, t)))| {
            let mutability = match arg {
                FnArg::Typed(pt) => match &*pt.pat {
                    Pat::Ident(id) => id.mutability,
                    _ => None,
                },
                FnArg::Receiver(_) => None,
            };
            let asm = format!(
                "// cg-grid-constant {name_lit}_param_{i}\n\tmov.b64 {{0}}, {name_lit}_param_{i};\n\tcvta.param.u64 {{0}}, {{0}};"
            );
            quote! {
                let #mutability #n = ::cooperative_groups::global::KernelParam::scoped(
                    <#t as ::cooperative_groups::global::KernelParam>::at_entry(#n, || {
                        let a: u64;
                        // SAFETY: reads the address of this kernel's own parameter.
                        unsafe { ::core::arch::asm!(#asm, out(reg64) a, options(pure, nomem, nostack)) };
                        a
                    }),
                    &__cg_launch_scope,
                );
            }
        })
        .collect();
    // `launch_bounds`: a comment in the entry's PTX that tells cg-build to
    // declare `.maxntid` (and `.minnctapersm`) in the entry's header, which
    // rustc cannot; the descriptor carries them for the launch checks.
    let (bounds_asm, bounds_desc) = match shape.bounds {
        Some(Bounds {
            max_threads,
            min_blocks,
            only_on,
        }) => {
            let mark = ptx_mark(&format!(
                "cg-launch-bounds {name_lit} {max_threads} {min_blocks}"
            ));
            let asm = match only_on {
                None => mark,
                Some(sm) => {
                    let plain = ptx_mark(&format!("cg-launch-bounds {name_lit} {max_threads} 0"));
                    quote! {
                        #[cfg(target_feature = #sm)]
                        { #mark }
                        #[cfg(not(target_feature = #sm))]
                        { #plain }
                    }
                }
            };
            (asm, quote!(.with_launch_bounds(#max_threads, #min_blocks)))
        }
        None => (quote!(), quote!()),
    };
    // `block_dim`: a comment that tells cg-build to declare `.reqntid`, and
    // at the top of the body the promise that the block has that shape
    // (the driver refuses every other launch of a `.reqntid` entry; on the
    // host the same call checks it), from which LLVM folds the block's size
    // and the thread's rank; the descriptor carries it for the launch
    // checks.
    let (dim_asm, dim_assume, dim_desc) = match shape.block_dim {
        Some([x, y, z]) => {
            (
                ptx_mark(&format!("cg-block-dim {name_lit} {x} {y} {z}")),
                quote! {
                    // SAFETY: the entry declares `.reqntid x, y, z`: every launch
                    // that runs has blocks of that shape (on the host: checked).
                    unsafe { ::cooperative_groups::__private::assume_block_dim(#x, #y, #z) };
                },
                quote!(.with_block_dim([#x, #y, #z])),
            )
        }
        None => (quote!(), quote!(), quote!()),
    };
    // `max_registers`: a comment that tells cg-build to declare `.maxnreg`.
    let regs_asm = match shape.max_registers {
        Some(n) => ptx_mark(&format!("cg-max-registers {name_lit} {n}")),
        None => quote!(),
    };
    // `fast_math`: a comment that tells cg-build to approximate the
    // entry's `f32` division and square root and flush its subnormals.
    let fast_asm = if shape.fast_math {
        ptx_mark(&format!("cg-fast-math {name_lit}"))
    } else {
        quote!()
    };
    Ok(quote! {
        #[cfg(target_arch = "nvptx64")]
        #(#attrs)*
        #[unsafe(no_mangle)]
        // The lint flags every parameter that is not a primitive or a thin
        // pointer, `repr(C)` structs included. A typed parameter is either
        // one of the library's views (each `repr(C)`, the layout the
        // launcher packs) or a `Pod` (whose contract is a fixed layout), so
        // the entry's ABI is the one the host writes. `unknown_lints`:
        // nightlies older than the lint.
        #[allow(clippy::missing_safety_doc, unknown_lints, improper_gpu_kernel_arg)]
        #vis #unsafety extern "gpu-kernel" fn #ident(#(#entry_inputs),*) {
            #bounds_asm
            #dim_asm
            #regs_asm
            #fast_asm
            #dim_assume
            #scope
            #(#prologue)*
            #body
        }

        #[cfg(not(target_arch = "nvptx64"))]
        #(#attrs)*
        #[allow(clippy::missing_safety_doc, clippy::too_many_arguments)]
        #vis #unsafety fn #ident(#inputs) {
            #dim_assume
            #body
        }

        #safe_check

        #[cfg(not(target_arch = "nvptx64"))]
        #[doc = #doc]
        #vis const #desc: ::cooperative_groups::Kernel<(#(#types,)*)> =
            // SAFETY: `#name_lit` is this crate's PTX entry of this very function
            // (above), whose parameters are the tuple's types, and the host body
            // calls it.
            unsafe {
                ::cooperative_groups::Kernel::new(::core::env!("CARGO_CRATE_NAME"), #name_lit, |(#(#names,)*)| {
                    #call
                })
            }
            .with_params(&[#(#name_lits),*])
            #bounds_desc
            #dim_desc;
    })
}

/// The methods that `fast_math` maps (`cooperative_groups::math::fast::FastMath`'s),
/// with their number of arguments besides the receiver.
const FAST_METHODS: &[(&str, usize)] = &[
    ("exp", 0),
    ("exp10", 0),
    ("ln", 0),
    ("log2", 0),
    ("log10", 0),
    ("sin", 0),
    ("cos", 0),
    ("tan", 0),
    ("sin_cos", 0),
    ("powf", 1),
    ("tanh", 0),
    ("rsqrt", 0),
];

/// The CUDA-named functions that `fast_math` maps to the intrinsic of the
/// same name in `cooperative_groups::math::fast` (`expf` → `__expf`), as
/// nvcc's `--use_fast_math` does.
const FAST_FUNCTIONS: &[&str] = &[
    "expf", "exp10f", "logf", "log2f", "log10f", "sinf", "cosf", "tanf", "sincosf", "powf",
    "tanhf", "rsqrtf",
];

/// `#[kernel(fast_math)]`'s rewrite of a kernel's body: `x.exp()` (a
/// method of [`FAST_METHODS`]) becomes
/// `::cooperative_groups::math::fast::FastMath::exp(x)`, and a call of a
/// path whose last segment is one of [`FAST_FUNCTIONS`] (`expf(x)`,
/// `math::expf(x)`) becomes `::cooperative_groups::math::fast::expf(x)`.
/// Macro invocations are left as written (their tokens are not
/// expressions yet).
struct FastMathRewrite;

impl syn::visit_mut::VisitMut for FastMathRewrite {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        match e {
            syn::Expr::MethodCall(m)
                if m.turbofish.is_none()
                    && FAST_METHODS
                        .iter()
                        .any(|(n, args)| m.method == n && m.args.len() == *args) =>
            {
                // `(a - b).exp()`: the parentheses go (they would warn
                // as the call's argument).
                let recv = match &*m.receiver {
                    syn::Expr::Paren(p) => &*p.expr,
                    r => r,
                };
                let (method, args) = (&m.method, m.args.iter());
                let span = method.span();
                let path = quote::quote_spanned!(span=> ::cooperative_groups::math::fast::FastMath::#method);
                *e = syn::parse_quote!(#path(#recv #(, #args)*));
            }
            syn::Expr::Call(c) => {
                if let syn::Expr::Path(p) = &*c.func
                    && p.qself.is_none()
                    && let Some(last) = p.path.segments.last()
                    && last.arguments.is_none()
                    && FAST_FUNCTIONS.iter().any(|n| last.ident == n)
                {
                    let name = &last.ident;
                    let args = c.args.iter();
                    // The path as written is still named (`let _ =`), so
                    // that the import it came through is not unused.
                    let orig = &p.path;
                    *e = syn::parse_quote!(({
                        let _ = #orig;
                        ::cooperative_groups::math::fast::#name
                    })(#(#args),*));
                }
            }
            _ => {}
        }
    }
}

/// `// TEXT` in the entry's PTX (an `asm` of a comment), a mark that
/// cg-build turns into a directive of the entry's header.
fn ptx_mark(text: &str) -> proc_macro2::TokenStream {
    let comment = format!("// {text}");
    quote! {
        // SAFETY: a PTX comment: no instruction.
        unsafe { ::core::arch::asm!(#comment, options(nomem, nostack, preserves_flags)) };
    }
}

/// Whether a parameter type is, or holds, a raw pointer (`*const T`,
/// `*mut T`), as written.
fn has_raw_pointer(ty: &Type) -> bool {
    struct Find(bool);
    impl<'a> syn::visit::Visit<'a> for Find {
        fn visit_type_ptr(&mut self, _: &'a syn::TypePtr) {
            self.0 = true;
        }
    }
    let mut f = Find(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

/// `shared_array!(T; N)` or `shared_array!(T; N, align A)`: parsed form.
struct SharedArrayInput {
    ty: Type,
    len: syn::Expr,
    align: Option<syn::Expr>,
}

impl Parse for SharedArrayInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let ty: Type = input.parse()?;
        input.parse::<Token![;]>()?;
        let len: syn::Expr = input.parse()?;
        let mut align = None;
        if input.parse::<Option<Token![,]>>()?.is_some() {
            let kw: syn::Ident = input.parse()?;
            if kw != "align" {
                return Err(syn::Error::new(
                    kw.span(),
                    "expected `align A` after the length",
                ));
            }
            align = Some(input.parse()?);
        }
        Ok(SharedArrayInput { ty, len, align })
    }
}

static SITE: AtomicUsize = AtomicUsize::new(0);

/// Declares one statically sized shared-memory array per block at this call
/// site and evaluates to its `SharedArray<T, N>` handle.
///
/// On `nvptx64` this emits a module-scope `.shared` variable with a unique
/// name, so that the allocation is one per block however often LLVM inlines,
/// unrolls or duplicates the code that uses it. On the host the same name keys
/// one buffer per simulated block.
///
/// `shared_array!(T; N, align A)` aligns the array to `A` bytes (a power of
/// two; `T`'s own alignment if that is larger): tensor tile copies
/// (`cooperative_groups::tma`) want 128.
#[proc_macro]
pub fn shared_array(input: TokenStream) -> TokenStream {
    let SharedArrayInput { ty, len, align } = parse_macro_input!(input as SharedArrayInput);
    // The alignment: `T`'s, or more when asked (a power of two, checked at
    // compile time: tile copies want 128 bytes).
    let align = match align {
        Some(a) => quote! {{
            const __CG_ALIGN: usize = #a;
            const {
                assert!(
                    __CG_ALIGN.is_power_of_two(),
                    "shared_array!: the alignment is a power of two"
                )
            };
            if __CG_ALIGN > ::core::mem::align_of::<#ty>() {
                __CG_ALIGN
            } else {
                ::core::mem::align_of::<#ty>()
            }
        }},
        None => quote! { ::core::mem::align_of::<#ty>() },
    };
    let krate = std::env::var("CARGO_CRATE_NAME").unwrap_or_else(|_| "crate".into());
    let n = SITE.fetch_add(1, Ordering::Relaxed);
    let sym = format!("cg_shared_{krate}_{n}");
    let decl = format!(".shared .align {{align}} .b8 {sym}[{{bytes}}];");
    let addr = format!("mov.u32 {{0}}, {sym};");
    quote! {{
        const __CG_LEN: usize = #len;
        #[cfg(target_arch = "nvptx64")]
        ::core::arch::global_asm!(
            #decl,
            align = const #align,
            bytes = const ::core::mem::size_of::<[#ty; __CG_LEN]>(),
        );
        #[cfg(target_arch = "nvptx64")]
        let __cg_addr: u32 = {
            let a: u32;
            // SAFETY: reads the shared-window address of a variable this expansion declared.
            unsafe { ::core::arch::asm!(#addr, out(reg32) a, options(pure, nomem, nostack)) };
            a
        };
        #[cfg(not(target_arch = "nvptx64"))]
        let __cg_addr = ::cooperative_groups::__private::static_shared(
            #sym,
            ::core::mem::size_of::<[#ty; __CG_LEN]>(),
            #align,
        );
        // SAFETY: the address names a per-block allocation of exactly
        // `[T; N]`, aligned for `T`, alive for the whole kernel.
        unsafe { ::cooperative_groups::SharedArray::<#ty, __CG_LEN>::from_shared_addr(__cg_addr) }
    }}
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(src: &str) -> String {
        let mut block: syn::Block = syn::parse_str(src).expect("a block");
        syn::visit_mut::VisitMut::visit_block_mut(&mut FastMathRewrite, &mut block);
        quote!(#block).to_string()
    }

    #[test]
    fn fast_math_rewrites_the_mapped_methods_and_functions() {
        let out = rewrite(
            "{ let a = v.exp() + x[i].sin() + (v * 2.0).powf(w) + expf(w) + math::logf(w) \
               + cooperative_groups::math::sincosf(v).0 + v.sin_cos().1 + v.tanh().exp(); }",
        );
        let fm = ":: cooperative_groups :: math :: fast :: FastMath ::";
        let f = ":: cooperative_groups :: math :: fast ::";
        for want in [
            format!("{fm} exp (v)"),
            format!("{fm} sin (x [i])"),
            format!("{fm} powf (v * 2.0 , w)"),
            format!("({{ let _ = expf ; {f} expf }}) (w)"),
            format!("({{ let _ = math :: logf ; {f} logf }}) (w)"),
            format!("({{ let _ = cooperative_groups :: math :: sincosf ; {f} sincosf }}) (v) . 0"),
            format!("{fm} sin_cos (v) . 1"),
            // Nested: the inner call first.
            format!("{fm} exp ({fm} tanh (v))"),
        ] {
            assert!(out.contains(&want), "{want}\nin {out}");
        }
    }

    #[test]
    fn fast_math_leaves_everything_else_alone() {
        for src in [
            // Not mapped: exact functions, other arities, turbofish, paths
            // of other names, `std`'s path syntax, macros.
            "{ v . sqrt () + v . exp2 () + v . floor () + v . mul_add (a , b) }",
            "{ v . exp (1.0) + v . powf () + v . sin :: < f32 > () }",
            "{ f32 :: exp (v) + Angle :: sin (a) + math :: exp2f (v) + sqrtf (v) }",
            "{ assert ! (v . exp () > 0.0) ; }",
            "{ let f = < f32 as FloatMath > :: exp ; f (v) }",
        ] {
            let block: syn::Block = syn::parse_str(src).unwrap();
            assert_eq!(rewrite(src), quote!(#block).to_string(), "{src}");
        }
    }

    #[test]
    fn fast_math_is_an_attribute_argument() {
        let a: KernelAttr = syn::parse_str("fast_math").unwrap();
        assert!(a.shape.fast_math);
        let a: KernelAttr = syn::parse_str("launch_bounds(256), fast_math").unwrap();
        assert!(a.shape.fast_math && a.shape.bounds.is_some());
        let a: KernelAttr = syn::parse_str("block_dim(128)").unwrap();
        assert!(!a.shape.fast_math);
        assert!(syn::parse_str::<KernelAttr>("fast_math, fast_math").is_err());
    }
}
