//! Launches the types reject: each file under `tests/ui/` must fail to
//! compile with the error recorded next to it (`TRYBUILD=overwrite` to
//! regenerate after a deliberate change of wording).

#[test]
fn misuse_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
