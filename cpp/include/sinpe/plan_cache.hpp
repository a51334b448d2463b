// A small cache of plans keyed by (kind, options, width), for callers that
// make the same plans again and again (a slider redrawing one width, the
// bindings' per-call methods). Not thread-safe: one cache per thread.
#pragma once

#include <array>
#include <cstddef>

#include "sinpe/rope.hpp"
#include "sinpe/sinpe.hpp"

namespace sinpe {

class PlanCache {
 public:
  // make_plan / make_grid_plan / make_rope_plan, or the plan a previous call
  // with equal arguments made.
  Status plan(const Options& options, int d_model, Plan* out);
  Status grid_plan(const Options& options, int d_model, Plan* out);
  Status rope_plan(const Options& options, int rotary_dim, RopePlan* out);

  static constexpr std::size_t kSlots = 8;

 private:
  enum class Kind { none, rows, grid, rope };
  struct Slot {
    Kind kind = Kind::none;
    int width = 0;
    Options key;
    Plan plan;
    RopePlan rope;
  };
  Slot* find(Kind kind, const Options& options, int width);
  Slot& next();
  std::array<Slot, kSlots> slots_;
  std::size_t next_ = 0;
};

}  // namespace sinpe
