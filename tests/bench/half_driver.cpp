// A tiny driver for profiling the half-precision paths against float32
// (callgrind, perf): one case, a few calls, prints a checksum so nothing is
// optimised away.
//   half_driver CASE DTYPE [CALLS] [scalar]
// CASE: table (table 4096 x 512) or rope (ropeCacheRows 0..131072, r = 128);
// DTYPE: float32, float16 or bfloat16; scalar: Path::scalar.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: half_driver table|rope float32|float16|bfloat16 [calls] [scalar]\n");
    return 2;
  }
  const bool table = std::strcmp(argv[1], "table") == 0;
  const std::string_view dt = argv[2];
  const sinpe::Dtype dtype = dt == "float16"    ? sinpe::Dtype::float16
                             : dt == "bfloat16" ? sinpe::Dtype::bfloat16
                                                : sinpe::Dtype::float32;
  const int calls = argc > 3 ? std::atoi(argv[3]) : 1;
  const sinpe::Path path =
      argc > 4 && std::strcmp(argv[4], "scalar") == 0 ? sinpe::Path::scalar : sinpe::Path::best;
  const std::size_t n = table ? 4096 : 131072, d = table ? 512 : 128;
  std::vector<float> f(n * d);
  std::vector<std::uint16_t> h(n * d);
  std::uint64_t sum = 0;
  if (table) {
    sinpe::Plan p;
    if (sinpe::make_plan(sinpe::Options{}, int(d), &p) != sinpe::Status::ok) return 1;
    for (int c = 0; c < calls; ++c) {
      void* out = dtype == sinpe::Dtype::float32 ? static_cast<void*>(f.data()) : h.data();
      const sinpe::Status s = sinpe::rows(p, 0, n, {dtype, out}, path);
      if (s != sinpe::Status::ok) return 1;
    }
  } else {
    sinpe::RopePlan p;
    if (sinpe::make_rope_plan(sinpe::Options{}, int(d), &p) != sinpe::Status::ok) return 1;
    sinpe::CacheOut out;
    out.dtype = dtype;
    if (dtype == sinpe::Dtype::float32) {
      out.cos = f.data();
      out.sin = f.data() + n * d / 2;
    } else {
      out.cos = h.data();
      out.sin = h.data() + n * d / 2;
    }
    for (int c = 0; c < calls; ++c)
      if (sinpe::rope_cache(p, sinpe::Positions::range(0, n), out, path) != sinpe::Status::ok) return 1;
  }
  for (std::size_t i = 0; i < n * d; i += 97) sum += h[i] + std::uint64_t(f[i] * 1000);
  std::printf("%llu\n", static_cast<unsigned long long>(sum));
  return 0;
}
