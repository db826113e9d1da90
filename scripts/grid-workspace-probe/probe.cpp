// Which launches see a grid workspace in %envreg1/%envreg2: loads each module
// named on the command line and launches its kernel plainly (p) or
// cooperatively (c) in the order of the first argument (see run.sh).
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r_ = (x); if (r_) { const char* s_; cuGetErrorString(r_, &s_); \
    printf("  %s -> %s\n", #x, s_); return; } } while (0)
static std::string slurp(const char* p) { std::ifstream f(p, std::ios::binary); std::stringstream s; s << f.rdbuf(); return s.str(); }
static void launch(CUfunction f, const char* label, bool coop, int words, int valid_word) {
    const int n = 128;
    CUdeviceptr d; CK(cuMemAlloc(&d, n * words * 4)); CK(cuMemsetD8(d, 0, n * words * 4));
    void* args[] = {&d};
    if (coop) CK(cuLaunchCooperativeKernel(f, 2, 1, 1, 64, 1, 1, 0, 0, args));
    else CK(cuLaunchKernel(f, 2, 1, 1, 64, 1, 1, 0, 0, args, 0));
    CK(cuCtxSynchronize());
    std::vector<unsigned> h(n * words); CK(cuMemcpyDtoH(h.data(), d, n * words * 4));
    int valid = 0; for (int t = 0; t < n; t++) valid += h[t * words + valid_word] != 0;
    printf("  %-34s %-5s valid in %3d/128 threads; t0 words:", label, coop ? "coop" : "plain", valid);
    for (int i = 0; i < 8; i++) printf(" %x", h[i]);
    printf("\n");
    cuMemFree(d);
}
int main(int argc, char** argv) {
    // argv: mode (order) then modules: kind:path:function:words:valid_word
    cuInit(0); CUdevice dev; cuDeviceGet(&dev, 0); CUcontext ctx; cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);
    std::string order = argv[1];
    for (int a = 2; a < argc; a++) {
        std::string spec = argv[a]; std::vector<std::string> p; std::stringstream ss(spec); std::string x;
        while (std::getline(ss, x, ':')) p.push_back(x);
        std::string img = slurp(p[1].c_str());
        CUmodule m; CUresult r;
        if (p[0].rfind("link", 0) == 0) {
            // PTX compiled to a cubin in-process by the driver's linker, then loaded.
            CUlinkState ls; void* cubin; size_t size;
            r = cuLinkCreate(0, nullptr, nullptr, &ls);
            if (!r) r = cuLinkAddData(ls, CU_JIT_INPUT_PTX, (void*)img.c_str(), img.size() + 1, "m.ptx", 0, nullptr, nullptr);
            if (!r) r = cuLinkComplete(ls, &cubin, &size);
            if (!r) r = cuModuleLoadData(&m, cubin);
        } else {
            r = cuModuleLoadData(&m, img.data());
        }
        if (r) { const char* s; cuGetErrorString(r, &s); printf("load %s: %s\n", p[1].c_str(), s); continue; }
        CUfunction f; r = cuModuleGetFunction(&f, m, p[2].c_str());
        if (r) { printf("no function %s\n", p[2].c_str()); continue; }
        int words = atoi(p[3].c_str()), vw = atoi(p[4].c_str());
        std::string label = p[0] + " " + p[2];
        for (char c : order) launch(f, label.c_str(), c == 'c', words, vw);
    }
    return 0;
}
