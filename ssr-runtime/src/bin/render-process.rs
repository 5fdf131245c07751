//! A render process and nothing else, for this crate's own tests and benches (the server starts
//! its own executable instead: `laundry` calls the same function first thing in `main`).

fn main() {
    ssr_runtime::run_if_render_process();
    eprintln!("render-process: started by a renderer only (it is this crate's test helper)");
    std::process::exit(2);
}
