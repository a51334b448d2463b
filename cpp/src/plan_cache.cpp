#include "sinpe/plan_cache.hpp"

namespace sinpe {

PlanCache::Slot* PlanCache::find(Kind kind, const Options& options, int width) {
  for (Slot& s : slots_)
    if (s.kind == kind && s.width == width && s.key == options) return &s;
  return nullptr;
}

PlanCache::Slot& PlanCache::next() { return slots_[next_++ % kSlots]; }

Status PlanCache::plan(const Options& options, int d_model, Plan* out) {
  if (Slot* s = find(Kind::rows, options, d_model)) return *out = s->plan, Status::ok;
  Plan p;
  if (const Status st = make_plan(options, d_model, &p); st != Status::ok) return st;
  Slot& s = next();
  s = Slot{Kind::rows, d_model, options, p, RopePlan()};
  *out = std::move(p);
  return Status::ok;
}

Status PlanCache::grid_plan(const Options& options, int d_model, Plan* out) {
  if (Slot* s = find(Kind::grid, options, d_model)) return *out = s->plan, Status::ok;
  Plan p;
  if (const Status st = make_grid_plan(options, d_model, &p); st != Status::ok) return st;
  Slot& s = next();
  s = Slot{Kind::grid, d_model, options, p, RopePlan()};
  *out = std::move(p);
  return Status::ok;
}

Status PlanCache::rope_plan(const Options& options, int rotary_dim, RopePlan* out) {
  if (Slot* s = find(Kind::rope, options, rotary_dim)) return *out = s->rope, Status::ok;
  RopePlan p;
  if (const Status st = make_rope_plan(options, rotary_dim, &p); st != Status::ok) return st;
  Slot& s = next();
  s = Slot{Kind::rope, rotary_dim, options, Plan(), p};
  *out = std::move(p);
  return Status::ok;
}

}  // namespace sinpe
