// A tensor map borrows its tensor: it cannot be used after the buffer is
// dropped (its memory reused).
use cooperative_groups::host::{Image, tensor_map};
use cooperative_groups::tma::TensorMap2d;

fn main() {
    let map: TensorMap2d<'_, f32, 8, 8> = {
        let data = vec![0f32; 64];
        tensor_map(Image::new(&data[..], 8, 8, 8)).unwrap()
    };
    let _ = map.width();
}
