// Multi-axis RoPE (M-RoPE and 2-D vision RoPE) against an independent float64
// reference written from transformers' code, not from the core:
// - sectioned: Qwen2VLRotaryEmbedding.forward (one angle per axis, the
//   frequencies doubled by cat(freqs, freqs)) then
//   apply_multimodal_rotary_pos_emb, which splits the doubled width by
//   mrope_section * 2 and takes chunk i from axis i % 3
//   (models/qwen2_vl/modeling_qwen2_vl.py; Qwen2.5-VL copies it);
// - interleaved: Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope, which
//   overwrites the t-axis angles at indices offset, offset + 3, ... below
//   mrope_section[axis] * 3 before doubling (models/qwen3_vl/modeling_qwen3_vl.py);
// - pixtral: PixtralRotaryEmbedding.compute_default_rope_parameters: the row
//   index times freqs[::2], then the column index times freqs[1::2], doubled
//   (models/pixtral/modeling_pixtral.py);
// - axial: Qwen2-VL's VisionRotaryEmbedding(head_dim / 2) on the row and
//   column indices, concatenated, doubled (modeling_qwen2_vl.py,
//   Qwen2VisionTransformerPretrainedModel.rot_pos_emb);
// then q * cos + rotate_half(q) * sin. Frequencies come from the RoPE
// reference (rope_reference.cpp); the angles are float64 where transformers
// has float32.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "rope_reference.hpp"
#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"
#include "support.hpp"

namespace {

using sinpe::Path;
using sinpe::RopeAxes;
using sinpe::Status;

constexpr double kCacheTolerance = 2.5e-7;  // x max(1, att)
constexpr double kRotateTolerance = 5e-7;   // x max(1, att) (|x_a| + |x_b|)

// The doubled angles (width r) of one token, as transformers builds them.
// pos: the token's positions, one per axis.
std::vector<double> emb_angles(const std::string& layout, const ref::RopeParams& prm, int r,
                               const std::vector<double>& sections, const double* pos) {
  const std::size_t half = std::size_t(r / 2), A = sections.size();
  std::vector<double> out(static_cast<std::size_t>(r), 0.0);
  if (layout == "sectioned") {
    const auto inv = ref::rope_inv_freq(prm, r);
    // emb[a] = cat(freqs_a, freqs_a), freqs_a = pos_a * inv
    std::vector<std::vector<double>> emb(A, std::vector<double>(std::size_t(r)));
    for (std::size_t a = 0; a < A; ++a)
      for (std::size_t j = 0; j < half; ++j) emb[a][j] = emb[a][j + half] = pos[a] * inv[j];
    // cos.split(mrope_section * 2): chunk i from axis i % 3.
    std::vector<double> sizes(sections);
    sizes.insert(sizes.end(), sections.begin(), sections.end());
    std::size_t at = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i)
      for (std::size_t c = 0; c < std::size_t(sizes[i]); ++c, ++at) out[at] = emb[i % A][at];
    REQUIRE(at == std::size_t(r));
  } else if (layout == "interleaved") {
    const auto inv = ref::rope_inv_freq(prm, r);
    std::vector<double> freqs_t(half);
    for (std::size_t j = 0; j < half; ++j) freqs_t[j] = pos[0] * inv[j];
    for (std::size_t dim = 1; dim < A; ++dim) {  // enumerate((1, 2), start=1): offset == dim
      const std::size_t length = std::size_t(sections[dim]) * A;
      for (std::size_t idx = dim; idx < std::min(length, half); idx += A) freqs_t[idx] = pos[dim] * inv[idx];
    }
    for (std::size_t j = 0; j < half; ++j) out[j] = out[j + half] = freqs_t[j];
  } else if (layout == "pixtral") {
    const auto freqs = ref::rope_inv_freq(prm, r);
    std::vector<double> inv;
    for (std::size_t j = 0; j < half; j += 2) inv.push_back(pos[0] * freqs[j]);  // freqs_h
    for (std::size_t j = 1; j < half; j += 2) inv.push_back(pos[1] * freqs[j]);  // freqs_w
    for (std::size_t j = 0; j < half; ++j) out[j] = out[j + half] = inv[j];
  } else {  // axial
    std::vector<double> rpe;
    for (std::size_t a = 0; a < A; ++a) {
      const auto inv = ref::rope_inv_freq(prm, int(2 * sections[a]));
      for (double f : inv) rpe.push_back(pos[a] * f);
    }
    REQUIRE(rpe.size() == half);
    for (std::size_t j = 0; j < half; ++j) out[j] = out[j + half] = rpe[j];
  }
  return out;
}

struct Case {
  const char* name;
  std::string layout;
  RopeAxes axes;
  sinpe::Options options;
  int r;
  std::vector<double> sections;  // also the reference's for pixtral: {r/4, r/4}
};

// The reference's frequencies for a case: its rope type's own options, without
// the sections (the reference applies those itself).
ref::RopeParams reference_params(const Case& c) {
  sinpe::Options o = c.options;
  o.mrope_section.reset();
  return to_rope_params(o);
}

sinpe::Options with(sinpe::RopeType t, std::vector<double> sections, RopeAxes axes) {
  sinpe::Options o;
  o.rope_type = t;
  if (!sections.empty()) o.mrope_section = sections;
  o.rope_axes = axes;
  return o;
}

std::vector<Case> cases() {
  std::vector<Case> c;
  // Qwen2-VL / Qwen2.5-VL: head_dim 128, mrope_section [16, 24, 24], theta 1e6.
  auto qwen2 = with(sinpe::RopeType::standard, {16, 24, 24}, RopeAxes::none);
  qwen2.base = 1e6;
  c.push_back({"Qwen2-VL sectioned (mropeSection alone)",
               "sectioned",
               RopeAxes::sectioned,
               qwen2,
               128,
               {16, 24, 24}});
  auto yarn = with(sinpe::RopeType::yarn, {8, 12, 12}, RopeAxes::sectioned);
  yarn.factor = 4;
  yarn.original_max_positions = 32768;
  c.push_back({"sectioned yarn r 64", "sectioned", RopeAxes::sectioned, yarn, 64, {8, 12, 12}});
  // Qwen3-VL: [24, 20, 20], theta 5e6.
  auto qwen3 = with(sinpe::RopeType::standard, {24, 20, 20}, RopeAxes::interleaved);
  qwen3.base = 5e6;
  c.push_back({"Qwen3-VL interleaved", "interleaved", RopeAxes::interleaved, qwen3, 128, {24, 20, 20}});
  // Qwen3.5-like: [11, 11, 10] on r = 64.
  c.push_back({"interleaved [11, 11, 10]",
               "interleaved",
               RopeAxes::interleaved,
               with(sinpe::RopeType::standard, {11, 11, 10}, RopeAxes::interleaved),
               64,
               {11, 11, 10}});
  auto lin = with(sinpe::RopeType::linear, {3, 2, 1}, RopeAxes::interleaved);
  lin.factor = 2;
  c.push_back({"interleaved linear r 12", "interleaved", RopeAxes::interleaved, lin, 12, {3, 2, 1}});
  // Pixtral: head_dim 64, theta 10000.
  c.push_back({"Pixtral",
               "pixtral",
               RopeAxes::pixtral,
               with(sinpe::RopeType::standard, {}, RopeAxes::pixtral),
               64,
               {16, 16}});
  c.push_back({"Pixtral r 8",
               "pixtral",
               RopeAxes::pixtral,
               with(sinpe::RopeType::standard, {}, RopeAxes::pixtral),
               8,
               {2, 2}});
  // Qwen2-VL vision: head_dim 80 -> two axes of 20 pairs, each its own rope of dimension 40.
  c.push_back({"axial (Qwen2-VL vision)",
               "axial",
               RopeAxes::axial,
               with(sinpe::RopeType::standard, {20, 20}, RopeAxes::axial),
               80,
               {20, 20}});
  c.push_back({"axial three uneven",
               "axial",
               RopeAxes::axial,
               with(sinpe::RopeType::standard, {4, 6, 2}, RopeAxes::axial),
               24,
               {4, 6, 2}});
  return c;
}

// Token positions, axes per token: a Qwen-like text + image layout, large
// and negative positions, fractional ones, and runs of consecutive ones.
std::vector<double> token_positions(std::size_t axes, std::size_t* n) {
  std::vector<double> p;
  const auto token = [&](std::vector<double> v) {
    for (std::size_t a = 0; a < axes; ++a) p.push_back(v[a % v.size()]);
  };
  for (int i = 0; i < 5; ++i) token({double(i)});  // text: every axis the same
  for (int h = 0; h < 4; ++h)
    for (int w = 0; w < 6; ++w) token({5, 5.0 + h, 5.0 + w});  // an image grid after the text
  for (int i = 0; i < 70; ++i) token({11.0 + i});              // text again, a run longer than a block
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-16777215, 16777215);
  for (int i = 0; i < 100; ++i) token({std::floor(u(rng)), std::floor(u(rng)), std::floor(u(rng))});
  token({16777215, -16777215, 0.25});
  *n = p.size() / axes;
  return p;
}

// Checks y, x rotated (tokens of `heads` vectors of hd floats, the first r
// rotated) against q * cos + rotate_half(q) * sin (or the interleaved pairs)
// at each token's reference angles emb[i] (doubled width), within the
// rotation contract; the largest error / (|x_a| + |x_b|) goes to *worst.
void check_rotated(const std::vector<float>& x, const std::vector<float>& y,
                   const std::vector<std::vector<double>>& emb, int r, int hd, std::size_t heads,
                   sinpe::RopeLayout layout, double att, double* worst) {
  const std::size_t n = emb.size(), half = std::size_t(r / 2);
  REQUIRE(x.size() == n * heads * std::size_t(hd));
  REQUIRE(y.size() == x.size());
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t o = (i * heads + h) * std::size_t(hd);
      for (std::size_t c2 = 0; c2 < std::size_t(hd); ++c2) {
        double want, scale;
        if (c2 >= std::size_t(r)) {
          want = x[o + c2];
          scale = 1;
        } else if (layout == sinpe::RopeLayout::half) {
          // rotate_half(q) = cat(-q2, q1); emb angle c2 (doubled width).
          const double rh = c2 < half ? -double(x[o + c2 + half]) : double(x[o + c2 - half]);
          want = x[o + c2] * std::cos(emb[i][c2]) * att + rh * std::sin(emb[i][c2]) * att;
          scale = std::fabs(x[o + c2]) + std::fabs(rh);
        } else {
          // Pairs (2j, 2j + 1) turn by pair j's angle.
          const std::size_t j = c2 / 2, a = o + 2 * j, b = a + 1;
          const double cs = std::cos(emb[i][j]) * att, sn = std::sin(emb[i][j]) * att;
          want = c2 % 2 == 0 ? x[a] * cs - x[b] * sn : x[b] * cs + x[a] * sn;
          scale = std::fabs(x[a]) + std::fabs(x[b]);
        }
        const double e = std::fabs(double(y[o + c2]) - want);
        if (!(e <= kRotateTolerance * std::max(1.0, att) * scale)) {
          INFO("token " << i << " head " << h << " column " << c2 << " layout " << int(layout));
          REQUIRE(y[o + c2] == Approx(want));
        }
        if (scale > 0 && !(e / scale <= *worst)) *worst = e / scale;
      }
    }
}

}  // namespace

TEST_CASE("multi-axis rope caches and rotation equal transformers' M-RoPE and 2-D RoPE in float64",
          "[rope][mrope]") {
  double worst_cache = 0, worst_rotate = 0;
  for (const Case& c : cases()) {
    INFO(c.name);
    sinpe::RopePlan plan;
    REQUIRE(sinpe::make_rope_plan(c.options, c.r, &plan) == Status::ok);
    const std::size_t axes = c.sections.size(), half = std::size_t(c.r / 2);
    REQUIRE(plan.axes() == int(axes));
    const auto prm = reference_params(c);
    const double att = ref::rope_attention(prm, c.r), tol = kCacheTolerance * std::max(1.0, att);
    std::size_t n;
    const auto pos = token_positions(axes, &n);
    std::vector<std::vector<double>> emb(n);
    for (std::size_t i = 0; i < n; ++i) emb[i] = emb_angles(c.layout, prm, c.r, c.sections, &pos[i * axes]);
    double worst = 0;
    for (Path path : {Path::best, Path::scalar}) {
      std::vector<float> cos(n * half, -7.f), sin(cos.size(), -7.f);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                                {sinpe::Dtype::float32, cos.data(), sin.data()}, path) == Status::ok);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < half; ++j) {
          // Both halves of the doubled reference hold the same angle; the cache is one half.
          REQUIRE(emb[i][j] == emb[i][j + half]);
          const double e = std::max(std::fabs(cos[i * half + j] - std::cos(emb[i][j]) * att),
                                    std::fabs(sin[i * half + j] - std::sin(emb[i][j]) * att));
          if (!(e <= worst)) worst = e;
        }
      // Rotation: q * cos + rotate_half(q) * sin, 3 heads, partial rotary (head_dim = r + 6).
      const int hd = c.r + 6;
      const std::size_t heads = 3;
      std::mt19937 rng(11);
      std::uniform_real_distribution<float> u(-2.f, 2.f);
      std::vector<float> x(n * heads * std::size_t(hd));
      for (float& v : x) v = u(rng);
      for (sinpe::RopeLayout layout : {sinpe::RopeLayout::half, sinpe::RopeLayout::interleaved}) {
        std::vector<float> y = x;
        REQUIRE(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::axes(pos.data(), n), heads, y.data(),
                                  path) == Status::ok);
        check_rotated(x, y, emb, c.r, hd, heads, layout, att, &worst_rotate);
      }
      // One position per token on a multi-axis plan: every axis that position.
      std::vector<double> one(n), same(n * axes);
      for (std::size_t i = 0; i < n; ++i) {
        one[i] = pos[i * axes];
        for (std::size_t a = 0; a < axes; ++a) same[i * axes + a] = one[i];
      }
      std::vector<float> c1(n * half), s1(c1.size()), c3(c1.size()), s3(c1.size());
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::list(one.data(), n),
                                {sinpe::Dtype::float32, c1.data(), s1.data()}, path) == Status::ok);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(same.data(), n),
                                {sinpe::Dtype::float32, c3.data(), s3.data()}, path) == Status::ok);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < half; ++j) {
          const double a = emb_angles(c.layout, prm, c.r, c.sections, &same[i * axes])[j];
          CHECK(std::fabs(c1[i * half + j] - std::cos(a) * att) <= tol);
          CHECK(std::fabs(s3[i * half + j] - std::sin(a) * att) <= tol);
        }
    }
    CHECK(worst <= tol);
    std::cout << "  [mrope] " << c.name << ": largest cache error " << worst << " (contract " << tol << ")\n";
    worst_cache = std::max(worst_cache, worst);
  }
  std::cout << "  [mrope] largest cache error " << worst_cache
            << ", largest rotation error / (|x_a| + |x_b|) " << worst_rotate << "\n";
}

TEST_CASE("rope_cache_grid is the patch grid, row-major, of the two-axis reference", "[rope][mrope]") {
  for (const Case& c : cases()) {
    if (c.sections.size() != 2) continue;
    INFO(c.name);
    sinpe::RopePlan plan;
    REQUIRE(sinpe::make_rope_plan(c.options, c.r, &plan) == Status::ok);
    const auto prm = reference_params(c);
    const std::size_t half = std::size_t(c.r / 2);
    for (auto [h, w] : {std::pair<std::size_t, std::size_t>{24, 37}, {1, 1}, {70, 3}, {2, 5000}}) {
      std::vector<float> cos(h * w * half, -7.f), sin(cos.size(), -7.f);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w),
                                {sinpe::Dtype::float32, cos.data(), sin.data()}) == Status::ok);
      double worst = 0;
      for (std::size_t i = 0; i < h; ++i)
        for (std::size_t j = 0; j < w; ++j) {
          const double p[2] = {double(i), double(j)};
          const auto emb = emb_angles(c.layout, prm, c.r, c.sections, p);
          const std::size_t m = i * w + j;
          for (std::size_t k = 0; k < half; ++k)
            worst = std::max({worst, std::fabs(cos[m * half + k] - std::cos(emb[k])),
                              std::fabs(sin[m * half + k] - std::sin(emb[k]))});
        }
      CHECK(worst <= kCacheTolerance);
    }
  }
}

TEST_CASE("apply_rope with a grid or a range source rotates each token by its positions", "[rope][mrope]") {
  double worst_rotate = 0;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  const auto random = [&](std::size_t size) {
    std::vector<float> x(size);
    for (float& v : x) v = u(rng);
    return x;
  };
  for (const Case& c : cases()) {
    INFO(c.name);
    sinpe::RopePlan plan;
    REQUIRE(sinpe::make_rope_plan(c.options, c.r, &plan) == Status::ok);
    const auto prm = reference_params(c);
    const double att = ref::rope_attention(prm, c.r);
    const int hd = c.r + 6;
    const std::size_t heads = 2, axes = c.sections.size();
    for (Path path : {Path::best, Path::scalar})
      for (sinpe::RopeLayout layout : {sinpe::RopeLayout::half, sinpe::RopeLayout::interleaved}) {
        INFO("path " << int(path) << " layout " << int(layout));
        // A range: token i at start + i on every axis, across the 64-token chunks.
        for (auto [start, n] : {std::pair<double, std::size_t>{-40, 150}, {16777215.0 - 69, 70}}) {
          std::vector<std::vector<double>> emb(n);
          std::vector<double> p(axes);
          for (std::size_t i = 0; i < n; ++i) {
            std::fill(p.begin(), p.end(), start + double(i));
            emb[i] = emb_angles(c.layout, prm, c.r, c.sections, p.data());
          }
          const auto x = random(n * heads * std::size_t(hd));
          auto y = x;
          REQUIRE(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::range(start, n), heads, y.data(),
                                    path) == Status::ok);
          check_rotated(x, y, emb, c.r, hd, heads, layout, att, &worst_rotate);
        }
        if (axes != 2) continue;
        // A grid: patch m at (m / w, m % w), patches [first, first + count).
        for (auto [h, w, first, count] :
             {std::tuple<std::size_t, std::size_t, std::size_t, std::size_t>{24, 37, 0, 888},
              {70, 3, 5, 150},
              {9, 11, 40, 59},
              {1, 1, 0, 1}}) {
          INFO("grid " << h << " x " << w << " patches " << first << " + " << count);
          std::vector<std::vector<double>> emb(count);
          for (std::size_t m = 0; m < count; ++m) {
            const double q[2] = {double((first + m) / w), double((first + m) % w)};
            emb[m] = emb_angles(c.layout, prm, c.r, c.sections, q);
          }
          const auto x = random(count * heads * std::size_t(hd));
          auto y = x;
          REQUIRE(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::grid(h, w, first, count), heads,
                                    y.data(), path) == Status::ok);
          check_rotated(x, y, emb, c.r, hd, heads, layout, att, &worst_rotate);
          if (first == 0 && count == h * w) {
            auto whole = x;
            REQUIRE(sinpe::apply_rope(plan, layout, hd, sinpe::Positions::grid(h, w), heads, whole.data(),
                                      path) == Status::ok);
            check_rotated(x, whole, emb, c.r, hd, heads, layout, att, &worst_rotate);
          }
        }
      }
  }
  std::cout << "  [mrope] grid and range sources: largest rotation error / (|x_a| + |x_b|) " << worst_rotate
            << "\n";
}

TEST_CASE("multi-axis options and calls refuse bad input by name, writing nothing", "[rope][mrope][errors]") {
  const auto status = [](sinpe::Options o, int r) {
    sinpe::RopePlan plan;
    const Status s = sinpe::make_rope_plan(o, r, &plan);
    CHECK(plan.valid() == (s == Status::ok));
    return s;
  };
  using T = sinpe::RopeType;
  CHECK(status(with(T::standard, {16, 24, 24}, RopeAxes::none), 128) == Status::ok);
  CHECK(status(with(T::standard, {16, 24, 23}, RopeAxes::none), 128) == Status::mrope_section_sum);
  CHECK(status(with(T::standard, {16, 24, 24}, RopeAxes::interleaved), 126) == Status::mrope_section_sum);
  CHECK(status(with(T::standard, {8, 8, 8, 8, 32}, RopeAxes::sectioned), 128) == Status::mrope_section_sum);
  CHECK(status(with(T::standard, {64, 0}, RopeAxes::sectioned), 128) == Status::bad_mrope_section);
  CHECK(status(with(T::standard, {31.5, 32.5}, RopeAxes::sectioned), 128) == Status::bad_mrope_section);
  CHECK(status(with(T::standard, {}, RopeAxes::interleaved), 128) == Status::mrope_section_missing);
  CHECK(status(with(T::standard, {}, RopeAxes::axial), 128) == Status::mrope_section_missing);
  CHECK(status(with(T::standard, {16, 16}, RopeAxes::pixtral), 64) == Status::mrope_section_not_read);
  CHECK(status(with(T::standard, {}, RopeAxes::pixtral), 62) == Status::rotary_dim_not_multiple_of_4);
  CHECK(status(with(T::standard, {}, RopeAxes(4)), 64) == Status::bad_rope_axes);
  CHECK(status(with(T::standard, {}, RopeAxes(-2)), 64) == Status::bad_rope_axes);
  // Axial: each axis its own rope type; longrope's factors must fit the whole rotary dimension.
  auto lr = with(T::longrope, {2, 2}, RopeAxes::axial);
  lr.short_factor = std::vector<double>(4, 1.0);
  lr.long_factor = std::vector<double>(4, 1.0);
  lr.original_max_positions = 4096;
  CHECK(status(lr, 8) == Status::bad_short_factor);

  sinpe::RopePlan plan, text, pix;
  REQUIRE(sinpe::make_rope_plan(with(T::standard, {2, 3, 3}, RopeAxes::interleaved), 16, &plan) ==
          Status::ok);
  REQUIRE(sinpe::make_rope_plan(sinpe::Options{}, 16, &text) == Status::ok);
  REQUIRE(sinpe::make_rope_plan(with(T::standard, {}, RopeAxes::pixtral), 16, &pix) == Status::ok);
  const std::size_t n = 80, half = 8;
  std::vector<float> a(n * half * 3, 0.5f), b(a.size(), 0.5f);
  const auto untouched = [&] {
    return std::all_of(a.begin(), a.end(), [](float v) { return v == 0.5f; }) &&
           std::all_of(b.begin(), b.end(), [](float v) { return v == 0.5f; });
  };
  for (auto [bad, want] : {std::pair{std::numeric_limits<double>::quiet_NaN(), Status::position_not_finite},
                           std::pair{16777216.0, Status::position_out_of_range}})
    for (std::size_t at : {std::size_t(2), std::size_t(3 * 70 + 1), std::size_t(3 * n - 1)}) {
      std::vector<double> p(3 * n, 1.0);
      p[at] = bad;
      CHECK(sinpe::rope_cache(plan, sinpe::Positions::axes(p.data(), n),
                              {sinpe::Dtype::float32, a.data(), b.data()}) == want);
      CHECK(sinpe::apply_rope(plan, sinpe::RopeLayout::half, 16, sinpe::Positions::axes(p.data(), n), 1,
                              a.data()) == want);
      CHECK(untouched());
    }
  std::vector<double> p(3 * n, 1.0);
  CHECK(sinpe::rope_cache(plan, sinpe::Positions::axes(nullptr, n),
                          {sinpe::Dtype::float32, a.data(), b.data()}) == Status::null_pointer);
  CHECK(sinpe::rope_cache(plan, sinpe::Positions::axes(p.data(), n),
                          {sinpe::Dtype::float32, a.data(), nullptr}) == Status::null_pointer);
  CHECK(sinpe::apply_rope(plan, sinpe::RopeLayout::half, 15, sinpe::Positions::axes(p.data(), n), 1,
                          a.data()) == Status::rotary_dim_above_head_dim);
  CHECK(sinpe::apply_rope(plan, sinpe::RopeLayout(5), 16, sinpe::Positions::axes(p.data(), n), 1, a.data()) ==
        Status::bad_rope_layout);
  CHECK(sinpe::rope_cache(plan, sinpe::Positions::grid(4, 4), {sinpe::Dtype::float32, a.data(), b.data()}) ==
        Status::axes_mismatch);
  CHECK(sinpe::rope_cache(text, sinpe::Positions::grid(4, 4), {sinpe::Dtype::float32, a.data(), b.data()}) ==
        Status::axes_mismatch);
  CHECK(sinpe::rope_cache(pix, sinpe::Positions::grid(16777217, 1),
                          {sinpe::Dtype::float32, a.data(), b.data()}) == Status::bad_count);
  CHECK(sinpe::rope_cache(pix, sinpe::Positions::grid(1u << 20, 1u << 20),
                          {sinpe::Dtype::float32, a.data(), b.data()}) == Status::too_large);
  CHECK(sinpe::rope_cache(pix, sinpe::Positions::grid(4, 4), {sinpe::Dtype::float32, nullptr, b.data()}) ==
        Status::null_pointer);
  CHECK(sinpe::rope_cache(pix, sinpe::Positions::grid(0, 4), {sinpe::Dtype::float32, nullptr, nullptr}) ==
        Status::ok);
  // Rotation from a grid or a range: the same checks, x left as it is.
  const auto rotate = [&](const sinpe::RopePlan& pl, int hd, sinpe::Positions at, float* x) {
    return sinpe::apply_rope(pl, sinpe::RopeLayout::half, hd, at, 1, x);
  };
  CHECK(rotate(plan, 16, sinpe::Positions::grid(4, 4), a.data()) == Status::axes_mismatch);
  CHECK(rotate(text, 16, sinpe::Positions::grid(4, 4), a.data()) == Status::axes_mismatch);
  CHECK(rotate(pix, 16, sinpe::Positions::grid(16777217, 1), a.data()) == Status::bad_count);
  CHECK(rotate(pix, 16, sinpe::Positions::grid(4, 4, 15, 2), a.data()) == Status::bad_count);
  CHECK(rotate(pix, 15, sinpe::Positions::grid(4, 4), a.data()) == Status::rotary_dim_above_head_dim);
  CHECK(rotate(pix, 16, sinpe::Positions::grid(4, 4), nullptr) == Status::null_pointer);
  CHECK(rotate(pix, 16, sinpe::Positions::grid(0, 4), nullptr) == Status::ok);
  CHECK(rotate(sinpe::RopePlan{}, 16, sinpe::Positions::grid(4, 4), a.data()) == Status::invalid_plan);
  CHECK(rotate(text, 16, sinpe::Positions::range(0.5, 4), a.data()) == Status::bad_start);
  CHECK(rotate(text, 16, sinpe::Positions::range(16777214, 4), a.data()) == Status::position_out_of_range);
  CHECK(rotate(plan, 16, sinpe::Positions::range(0, 4), nullptr) == Status::null_pointer);
  CHECK(rotate(plan, 15, sinpe::Positions::range(0, 4), a.data()) == Status::rotary_dim_above_head_dim);
  CHECK(rotate(plan, 16, sinpe::Positions::range(0, 0), nullptr) == Status::ok);
  CHECK(untouched());
  CHECK(std::string(sinpe::rope_axes_name(RopeAxes::interleaved)) == "interleaved");
}

TEST_CASE("half-precision multi-axis caches and grid ranges: the reference rounded once",
          "[rope][mrope][half]") {
  std::size_t checked = 0, near = 0;
  for (const Case& c : cases()) {
    INFO(c.name);
    sinpe::RopePlan plan;
    REQUIRE(sinpe::make_rope_plan(c.options, c.r, &plan) == Status::ok);
    const auto prm = reference_params(c);
    const double att = ref::rope_attention(prm, c.r);
    const std::size_t axes = c.sections.size(), half = std::size_t(c.r / 2);
    std::size_t n = 0;
    const std::vector<double> pos = token_positions(axes, &n);
    for (sinpe::Dtype dtype : {sinpe::Dtype::float16, sinpe::Dtype::bfloat16}) {
      const auto round = dtype == sinpe::Dtype::float16 ? sinpe::round_to_float16 : sinpe::round_to_bfloat16;
      std::vector<std::uint16_t> cos(n * half), sin(n * half), cos2(n * half), sin2(n * half);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                                {dtype, cos.data(), sin.data()}) == Status::ok);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                                {dtype, cos2.data(), sin2.data()}, Path::scalar) == Status::ok);
      CHECK(cos == cos2);
      CHECK(sin == sin2);
      for (std::size_t i = 0; i < n; ++i) {
        const auto emb = emb_angles(c.layout, prm, c.r, c.sections, pos.data() + i * axes);
        for (std::size_t k = 0; k < half; ++k)
          for (auto [got, v] : {std::pair{cos[i * half + k], std::cos(emb[k]) * att},
                                std::pair{sin[i * half + k], std::sin(emb[k]) * att}}) {
            ++checked;
            // The reference's own float64 error: a few units in the last place of the angle and of the value.
            const double slack = 4e-16 * (std::fabs(emb[k]) + std::fabs(v)) * std::max(1.0, att);
            const std::uint16_t lo = round(v - slack), hi = round(v + slack);
            if (v != 0 && lo != hi) {
              ++near;
              INFO("value " << v << ": bits " << got << ", want " << lo << " or " << hi);
              CHECK((got == lo || got == hi));
            } else {
              CHECK(got == round(v));
            }
          }
      }
      // One-axis plans: rope_cache_axes is rope_cache.
      sinpe::RopePlan text;
      REQUIRE(sinpe::make_rope_plan(sinpe::Options{}, c.r, &text) == Status::ok);
      std::vector<std::uint16_t> t1(n * half), t2(n * half), s1(n * half), s2(n * half);
      std::vector<double> first(n);
      for (std::size_t i = 0; i < n; ++i) first[i] = pos[i * axes];
      REQUIRE(sinpe::rope_cache(text, sinpe::Positions::axes(first.data(), n),
                                {dtype, t1.data(), s1.data()}) == Status::ok);
      REQUIRE(sinpe::rope_cache(text, sinpe::Positions::list(first.data(), n),
                                {dtype, t2.data(), s2.data()}) == Status::ok);
      CHECK(t1 == t2);
      CHECK(s1 == s2);
    }
    if (axes != 2) continue;
    // Grid ranges: any [first, first + count) is that slice of the whole grid.
    const std::size_t h = 13, w = 29, cells = h * w;
    std::vector<float> fc(cells * half), fs(cells * half);
    REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w),
                              {sinpe::Dtype::float32, fc.data(), fs.data()}) == Status::ok);
    std::vector<std::uint16_t> hc(cells * half), hs(cells * half);
    REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w),
                              {sinpe::Dtype::float16, hc.data(), hs.data()}) == Status::ok);
    for (auto [first, count] :
         {std::pair<std::size_t, std::size_t>{0, cells}, {5, 1}, {28, 31}, {cells - 3, 3}}) {
      std::vector<float> c1(count * half), s1(count * half);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, first, count),
                                {sinpe::Dtype::float32, c1.data(), s1.data()}) == Status::ok);
      // float32: the block kernel's anchors depend on where a range starts, so within the contract of
      // each other (both are within it of the reference, tested above); half: bit for bit.
      for (std::size_t i = 0; i < c1.size(); ++i) {
        CHECK(std::fabs(c1[i] - fc[first * half + i]) <= 2 * kCacheTolerance * std::max(1.0, att));
        CHECK(std::fabs(s1[i] - fs[first * half + i]) <= 2 * kCacheTolerance * std::max(1.0, att));
      }
      std::vector<std::uint16_t> c2(count * half), s2(count * half);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, first, count),
                                {sinpe::Dtype::float16, c2.data(), s2.data()}) == Status::ok);
      CHECK(std::equal(c2.begin(), c2.end(), hc.begin() + std::ptrdiff_t(first * half)));
      CHECK(std::equal(s2.begin(), s2.end(), hs.begin() + std::ptrdiff_t(first * half)));
    }
    std::vector<std::uint16_t> z(4, 7);
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, cells - 1, 2),
                            {sinpe::Dtype::float16, z.data(), z.data() + 2}) == Status::bad_count);
    CHECK(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, 0, 1),
                            {sinpe::Dtype(sinpe::kDtypeCount), z.data(), z.data() + 2}) == Status::bad_dtype);
    CHECK(std::all_of(z.begin(), z.end(), [](std::uint16_t v) { return v == 7; }));
  }
  CHECK(near < checked / 1000);
  std::cout << "  [mrope half] " << checked << " values, " << checked - near << " bit-exact, " << near
            << " within the reference's own error of a boundary\n";
}

// Per-axis position patterns the multi-axis cache shares float64 anchors
// across (one anchor per block of the axis plan's rows, kept for a few
// blocks): each token's values must still be those of its own positions.
// Patterns for one axis, token i of n: runs at any offset, runs broken at
// every 64-row block boundary (and one row either side of it), descending,
// repeated, step 2 within groups (the benchmark's), negative and fractional
// runs crossing zero, integers and halves alternating, runs ending at the largest position, and a Qwen-like
// text + image grid + text sequence on every axis.
namespace {

std::vector<std::vector<double>> axis_patterns(std::size_t n) {
  std::vector<std::vector<double>> out;
  const auto make = [&](auto f) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = f(double(i), i);
    out.push_back(std::move(v));
  };
  make([](double x, std::size_t) { return x; });
  make([](double x, std::size_t) { return 37 + x; });
  make([](double, std::size_t i) { return double(i + 1000 * (i / 64)); });         // breaks at 64k
  make([](double, std::size_t i) { return double(i + 1000 * ((i + 1) / 64)); });   // breaks at 64k - 1
  make([](double, std::size_t i) { return double(i + 1000 * ((i + 63) / 64)); });  // breaks at 64k + 1
  make([](double, std::size_t i) { return double(i + 64 * (i / 64)); });           // adjacent blocks skipped
  make([](double x, std::size_t) { return 300 - x; });
  make([](double, std::size_t i) { return double(i / 5); });
  make([](double, std::size_t i) { return double(i + i % 7); });
  make([](double, std::size_t i) { return double(i + i % 11); });
  make([](double x, std::size_t) { return x - 100; });
  make([](double x, std::size_t) { return -0.75 - x; });
  make([](double x, std::size_t) { return x - 64.5; });
  make([](double x, std::size_t) { return x / 2; });  // integers and halves alternating on one axis
  make([](double x, std::size_t) { return 16777215 - x; });
  make([](double x, std::size_t) { return 16777216 - double(std::size_t(x) % 200 + 1); });
  make([](double, std::size_t i) { return double((i * 2654435761u) % 16777216u); });
  // The split's runs (axes_kernel.hpp AxisBlocks::split, tiles of 32 tokens):
  // repeated positions across tile edges (a token copying the one before it);
  // runs of length 1 (two blocks alternating); more distinct blocks within
  // one tile than anchor slots; an integral run broken by one fraction and
  // resumed in the same block; +0 and -0; a fraction just above a block's
  // start between integers of the block below it.
  make([](double, std::size_t i) { return double(3 * ((i + 20) / 25)); });
  make([](double, std::size_t i) { return i % 2 ? 5000.0 + double(i) : double(i); });
  make([](double, std::size_t i) { return double(64 * ((i * 7) % 45) + i % 64); });
  make([](double x, std::size_t i) { return i % 5 == 2 ? x + 0.5 : x; });
  make([](double, std::size_t i) { return i % 3 == 0 ? -0.0 : i % 3 == 1 ? 0.0 : 1.0; });
  make([](double, std::size_t i) { return i % 4 == 0 ? -1 + 0x1p-52 : -double(i % 64); });
  return out;
}

// Text (12 tokens), an image grid (t, h, w) = (12, 12 + row, 12 + column) of
// 9 x 14 patches, then text from 12 + 14: token-major with `axes` per token
// (axis a > 2 repeats axis 2).
std::vector<double> text_image_text(std::size_t axes, std::size_t* n) {
  std::vector<double> p;
  const auto token = [&](double t, double h, double w) {
    const double v[3] = {t, h, w};
    for (std::size_t a = 0; a < axes; ++a) p.push_back(v[std::min<std::size_t>(a, 2)]);
  };
  for (int i = 0; i < 12; ++i) token(i, i, i);
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 14; ++c) token(12, 12 + r, 12 + c);
  for (int i = 0; i < 150; ++i) token(26 + i, 26 + i, 26 + i);
  *n = p.size() / axes;
  return p;
}

}  // namespace

TEST_CASE("multi-axis caches at structured positions (runs, block edges, mixed): the reference",
          "[rope][mrope]") {
  constexpr std::size_t kTokens = 260;
  const auto patterns = axis_patterns(kTokens);
  std::size_t checked = 0;
  for (const Case& c : cases()) {
    INFO(c.name);
    sinpe::RopePlan plan;
    REQUIRE(sinpe::make_rope_plan(c.options, c.r, &plan) == Status::ok);
    const std::size_t axes = c.sections.size(), half = std::size_t(c.r / 2);
    const auto prm = reference_params(c);
    const double att = ref::rope_attention(prm, c.r), tol = kCacheTolerance * std::max(1.0, att);
    // Position lists: every axis one pattern; each axis a different pattern (rotated); the mixed sequence.
    std::vector<std::vector<double>> lists;
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      std::vector<double> same(kTokens * axes), rotated(kTokens * axes);
      for (std::size_t i = 0; i < kTokens; ++i)
        for (std::size_t a = 0; a < axes; ++a) {
          same[i * axes + a] = patterns[k][i];
          rotated[i * axes + a] = patterns[(k + 3 * a) % patterns.size()][i];
        }
      lists.push_back(std::move(same));
      lists.push_back(std::move(rotated));
    }
    std::size_t mixed_n = 0;
    lists.push_back(text_image_text(axes, &mixed_n));
    for (const std::vector<double>& pos : lists) {
      const std::size_t n = pos.size() / axes;
      for (Path path : {Path::best, Path::scalar}) {
        std::vector<float> cos(n * half, -7.f), sin(cos.size(), -7.f);
        REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                                  {sinpe::Dtype::float32, cos.data(), sin.data()}, path) == Status::ok);
        // The same tokens in calls of 1, 31, 32, 33, 64, 2, 1, ... tokens, each into a buffer of its
        // own: every bit the same (a token's values are its positions' alone; a call's first token
        // has no token before it to copy).
        constexpr std::size_t kCalls[] = {1, 31, 32, 33, 64, 2};
        for (std::size_t i0 = 0, k = 0, m = 0; i0 < n; i0 += m, ++k) {
          m = std::min(n - i0, kCalls[k % 6]);
          std::vector<float> pc(m * half, -7.f), ps(pc.size(), -7.f);
          REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data() + i0 * axes, m),
                                    {sinpe::Dtype::float32, pc.data(), ps.data()}, path) == Status::ok);
          INFO("call of tokens " << i0 << " ... " << i0 + m - 1);
          REQUIRE(std::memcmp(pc.data(), cos.data() + i0 * half, pc.size() * sizeof(float)) == 0);
          REQUIRE(std::memcmp(ps.data(), sin.data() + i0 * half, ps.size() * sizeof(float)) == 0);
        }
        // Rotation of ones at head_dim r (half layout): x'_j = c - s, x'_{j+half} = c + s of the same values.
        std::vector<float> x(n * std::size_t(c.r), 1.f);
        REQUIRE(sinpe::apply_rope(plan, sinpe::RopeLayout::half, c.r, sinpe::Positions::axes(pos.data(), n),
                                  1, x.data(), path) == Status::ok);
        for (std::size_t i = 0; i < n; ++i) {
          const auto emb = emb_angles(c.layout, prm, c.r, c.sections, &pos[i * axes]);
          for (std::size_t j = 0; j < half; ++j) {
            const double wc = std::cos(emb[j]) * att, ws = std::sin(emb[j]) * att;
            const double e = std::max(std::fabs(cos[i * half + j] - wc), std::fabs(sin[i * half + j] - ws));
            if (!(e <= tol)) {
              INFO("token " << i << " pair " << j << " positions " << pos[i * axes] << ", "
                            << pos[i * axes + axes - 1] << " error " << e);
              REQUIRE(e <= tol);
            }
            const float* xi = x.data() + i * std::size_t(c.r);
            const double r = std::max(std::fabs(xi[j] - (wc - ws)), std::fabs(xi[j + half] - (wc + ws)));
            if (!(r <= 2 * kRotateTolerance * std::max(1.0, att))) {
              INFO("rotation: token " << i << " pair " << j << " error " << r);
              REQUIRE(r <= 2 * kRotateTolerance * std::max(1.0, att));
            }
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked > 1000000);
}

TEST_CASE("float32 multi-axis caches and grids: the reference rounded once", "[rope][mrope][float32]") {
  std::size_t checked = 0, near = 0;
  for (const Case& c : cases()) {
    INFO(c.name);
    sinpe::RopePlan plan;
    REQUIRE(sinpe::make_rope_plan(c.options, c.r, &plan) == Status::ok);
    const auto prm = reference_params(c);
    const double att = ref::rope_attention(prm, c.r);
    const std::size_t axes = c.sections.size(), half = std::size_t(c.r / 2);
    // The reference's own float64 error: a few units in the last place of the angle and of the value.
    const auto check = [&](float got, double v, double angle) {
      ++checked;
      const double slack = 4e-16 * (std::fabs(angle) + std::fabs(v)) * std::max(1.0, att);
      const float lo = float(v - slack), hi = float(v + slack);
      if (lo != hi) {
        ++near;  // at large angles the slack spans several float32 values: any of them
        INFO("value " << v << ": got " << got << ", want " << lo << " ... " << hi);
        CHECK((got >= lo && got <= hi));
      } else {
        INFO("value " << v << ": got " << got << ", want " << lo);
        CHECK(got == lo);
      }
    };
    std::size_t n = 0;
    const std::vector<double> pos = token_positions(axes, &n);
    for (Path path : {Path::best, Path::scalar}) {
      std::vector<float> cos(n * half, -7.f), sin(n * half, -7.f);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::axes(pos.data(), n),
                                {sinpe::Dtype::float32, cos.data(), sin.data()}, path) == Status::ok);
      for (std::size_t i = 0; i < n; ++i) {
        const auto emb = emb_angles(c.layout, prm, c.r, c.sections, pos.data() + i * axes);
        for (std::size_t k = 0; k < half; ++k) {
          check(cos[i * half + k], std::cos(emb[k]) * att, emb[k]);
          check(sin[i * half + k], std::sin(emb[k]) * att, emb[k]);
        }
      }
      if (axes != 2) continue;
      // The patch grid, whole and a window: row-major (row, column) positions.
      const std::size_t h = 13, w = 29, first = 28, count = 300;
      std::vector<float> gc(count * half, -7.f), gs(count * half, -7.f);
      REQUIRE(sinpe::rope_cache(plan, sinpe::Positions::grid(h, w, first, count),
                                {sinpe::Dtype::float32, gc.data(), gs.data()}, path) == Status::ok);
      for (std::size_t i = 0; i < count; ++i) {
        const double p2[2] = {double((first + i) / w), double((first + i) % w)};
        const auto emb = emb_angles(c.layout, prm, c.r, c.sections, p2);
        for (std::size_t k = 0; k < half; ++k) {
          check(gc[i * half + k], std::cos(emb[k]) * att, emb[k]);
          check(gs[i * half + k], std::sin(emb[k]) * att, emb[k]);
        }
      }
    }
  }
  CHECK(checked > 50000);
  CHECK(near * 10 < checked);
  std::cout << "  [mrope float32] " << checked << " values, " << checked - near
            << " bit for bit the reference rounded once, " << near
            << " within the reference's own error of a boundary\n";
}
