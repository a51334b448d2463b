// Argument checks shared by every entry point.
#include <cmath>

#include "plan_data.hpp"

namespace sinpe {

Status check_position(double p) noexcept {
  if (!std::isfinite(p)) return Status::position_not_finite;
  if (std::fabs(p) >= kMaxAbsPosition) return Status::position_out_of_range;
  return Status::ok;
}

Status check_positions(const double* positions, std::size_t n, std::size_t* bad_index) noexcept {
  // Without a branch per position first (every call checks all its positions,
  // and they are nearly always fine; the compiler can use vectors); the loop
  // below, with check_position's rules in their order, finds the first bad one.
  unsigned bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad |= unsigned(!(std::fabs(positions[i]) < kMaxAbsPosition));
  if (bad == 0) return Status::ok;
  for (std::size_t i = 0; i < n; ++i)
    if (const Status s = check_position(positions[i]); s != Status::ok) {
      if (bad_index) *bad_index = i;
      return s;
    }
  return Status::ok;
}

Status check_row_range(double start, std::size_t count) noexcept {
  if (!std::isfinite(start) || start != std::floor(start)) return Status::bad_start;
  if (std::fabs(start) >= kMaxAbsPosition) return Status::position_out_of_range;
  if (count > std::size_t(2 * kMaxAbsPosition)) return Status::position_out_of_range;
  if (count > 0 && std::fabs(start + double(count) - 1.0) >= kMaxAbsPosition)
    return Status::position_out_of_range;
  return Status::ok;
}

Status check_elements(std::size_t rows, std::size_t width) noexcept {
  if (width != 0 && rows > kMaxElements / width) return Status::too_large;
  return Status::ok;
}

Status check_column_window(const Plan& plan, int col0, int cols) noexcept {
  const int d = plan.d_model();
  if (col0 < 0 || cols < 0 || col0 > d || cols > d - col0) return Status::bad_column_window;
  return Status::ok;
}

Status check_value_range(double vmin, double vmax) noexcept {
  if (!std::isfinite(vmin) || !std::isfinite(vmax) || !(vmin < vmax)) return Status::bad_value_range;
  return Status::ok;
}

}  // namespace sinpe
