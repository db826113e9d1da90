// A launch with regions trusts them for the whole launch: `unsafe`, as is
// the launch on several threads, and the safe-kernel launcher that takes
// regions and views made elsewhere.
use cg_sim::{LaunchConfig, SimDevice};

fn body(_: ()) {}

fn main() {
    let (dev, cfg) = (SimDevice::default(), LaunchConfig::new(1, 32));
    let _ = cg_sim::launch_with(&dev, &cfg, &[], &|| {});
    let _ = cg_sim::launch_parallel(&dev, &cfg, &[], &|| {});
    let _ = cooperative_groups::host::launch_safe(&dev, &cfg, &[], body, ());
}
