// A cluster's arrival token does not fit the grid's barrier_wait.
use cooperative_groups::*;

fn main() {
    let cluster = this_cluster();
    let grid = this_grid();
    let token = cluster.barrier_arrive();
    grid.barrier_wait(token);
}
