// An independent float64 reference for RoPE, written from REFERENCE-ROPE.md and
// checked against Hugging Face transformers v5 (modeling_rope_utils.py), with
// no code shared with the core. The same formulas as tests/js/rope-reference.mjs;
// where REFERENCE-ROPE.md and transformers disagree (yarn's and longrope's
// factor when originalMaxPositions is given) it follows transformers v5, as
// that file's header explains.
#pragma once
#include <limits>
#include <string>
#include <vector>

namespace ref {

// RoPE options with sinpe's meaning. An absent option is NaN (or an empty
// vector); its rope type's default then applies, as in the package.
struct RopeParams {
  std::string rope_type = "default";  // default | linear | dynamic | yarn | longrope | llama3 | proportional
  double base = 10000;
  double factor = kAbsent;
  double max_positions = kAbsent;           // M (max_position_embeddings)
  double original_max_positions = kAbsent;  // L (original_max_position_embeddings)
  double seq_len = kAbsent;                 // current sequence length (dynamic, longrope)
  double low_freq_factor = kAbsent, high_freq_factor = kAbsent;  // llama3 (1, 4)
  double beta_fast = kAbsent, beta_slow = kAbsent;               // yarn (32, 1)
  double attention_factor = kAbsent;                             // yarn, longrope
  double mscale = kAbsent, mscale_all_dim = kAbsent;             // yarn (DeepSeek)
  double partial_rotary_factor = kAbsent;                        // proportional (1)
  bool truncate = true;                                          // yarn
  std::vector<double> short_factor, long_factor;                 // longrope, rotary_dim/2 each

  static constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();
};

// inv_j, radians per position, j < rotary_dim/2. Throws std::invalid_argument
// when the rope type needs an option that is absent.
std::vector<double> rope_inv_freq(const RopeParams& p, int rotary_dim);
// The factor every cos and sin is multiplied by.
double rope_attention(const RopeParams& p, int rotary_dim);
// Cache rows for the positions, row-major (n, rotary_dim/2): cos(p·inv_j)·att
// and sin(p·inv_j)·att.
void rope_cache(const RopeParams& p, int rotary_dim, const std::vector<double>& positions,
                std::vector<double>& cos, std::vector<double>& sin);
// The float64 rotation of x ([token][head][dim], positions.size() tokens,
// x.size() / (positions.size() * head_dim) heads). layout: "half" (pair j =
// (j, j + r/2)) or "interleaved" (pair j = (2j, 2j + 1)); dimensions
// rotary_dim … head_dim-1 pass through.
std::vector<double> rope_rotate(const RopeParams& p, const std::vector<float>& x,
                                const std::vector<double>& positions, int head_dim, int rotary_dim,
                                const std::string& layout);

}  // namespace ref
