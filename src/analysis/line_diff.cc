#include "analysis/line_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>

namespace tlscope::analysis {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

namespace {

// Lines as small ids: equal lines, equal ids.
class Differ {
 public:
  Differ(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    std::unordered_map<std::string_view, uint32_t> ids;
    auto id = [&](std::string_view s) {
      return ids.try_emplace(s, uint32_t(ids.size())).first->second;
    };
    for (auto s : a) a_.push_back(id(s));
    for (auto s : b) b_.push_back(id(s));
    size_t max = a_.size() + b_.size() + 2;
    vf_.assign(2 * max + 1, 0);
    vb_.assign(2 * max + 1, 0);
  }

  std::vector<DiffOp> run() {
    diff(0, a_.size(), 0, b_.size());
    return std::move(ops_);
  }

 private:
  void emit(DiffOp::Kind kind, size_t a, size_t b, size_t n) {
    if (n == 0) return;
    if (!ops_.empty() && ops_.back().kind == kind &&
        ops_.back().a + (kind == DiffOp::kInsert ? 0 : ops_.back().count) == a &&
        ops_.back().b + (kind == DiffOp::kDelete ? 0 : ops_.back().count) == b) {
      ops_.back().count += n;
      return;
    }
    ops_.push_back({kind, a, b, n});
  }

  // The middle snake of a[alo, ahi) and b[blo, bhi), both non-empty: it runs
  // from (*x, *y) to (*u, *v) in absolute coordinates.
  void middle_snake(size_t alo, size_t ahi, size_t blo, size_t bhi, size_t* x, size_t* y, size_t* u,
                    size_t* v) {
    const int64_t n = int64_t(ahi - alo), m = int64_t(bhi - blo), delta = n - m;
    const bool odd = (delta & 1) != 0;
    const int64_t off = n + m + 1;  // index of diagonal 0
    vf_[off + 1] = 0;
    vb_[off + 1] = 0;
    for (int64_t d = 0; d <= (n + m + 1) / 2; ++d) {
      for (int64_t k = -d; k <= d; k += 2) {
        int64_t xs = (k == -d || (k != d && vf_[off + k - 1] < vf_[off + k + 1]))
                         ? vf_[off + k + 1]
                         : vf_[off + k - 1] + 1;
        int64_t ys = xs - k, xe = xs, ye = ys;
        while (xe < n && ye < m && a_[alo + xe] == b_[blo + ye]) ++xe, ++ye;
        vf_[off + k] = xe;
        int64_t kb = delta - k;  // the same diagonal, seen from the end
        if (odd && kb >= -(d - 1) && kb <= d - 1 && xe + vb_[off + kb] >= n) {
          *x = alo + xs, *y = blo + ys, *u = alo + xe, *v = blo + ye;
          return;
        }
      }
      for (int64_t k = -d; k <= d; k += 2) {
        int64_t xs = (k == -d || (k != d && vb_[off + k - 1] < vb_[off + k + 1]))
                         ? vb_[off + k + 1]
                         : vb_[off + k - 1] + 1;
        int64_t ys = xs - k, xe = xs, ye = ys;
        while (xe < n && ye < m && a_[ahi - 1 - xe] == b_[bhi - 1 - ye]) ++xe, ++ye;
        vb_[off + k] = xe;
        int64_t kf = delta - k;
        if (!odd && kf >= -d && kf <= d && xe + vf_[off + kf] >= n) {
          // Backward coordinates: the snake ends (forward) at n - xs.
          *x = ahi - xe, *y = bhi - ye, *u = ahi - xs, *v = bhi - ys;
          return;
        }
      }
    }
    *x = *u = ahi, *y = *v = bhi;  // not reached for valid input
  }

  void diff(size_t alo, size_t ahi, size_t blo, size_t bhi) {
    size_t pre = 0;
    while (alo + pre < ahi && blo + pre < bhi && a_[alo + pre] == b_[blo + pre]) ++pre;
    emit(DiffOp::kEqual, alo, blo, pre);
    alo += pre, blo += pre;
    size_t suf = 0;
    while (ahi - suf > alo && bhi - suf > blo && a_[ahi - 1 - suf] == b_[bhi - 1 - suf]) ++suf;
    ahi -= suf, bhi -= suf;
    if (alo == ahi) {
      emit(DiffOp::kInsert, alo, blo, bhi - blo);
    } else if (blo == bhi) {
      emit(DiffOp::kDelete, alo, blo, ahi - alo);
    } else {
      size_t x, y, u, v;
      middle_snake(alo, ahi, blo, bhi, &x, &y, &u, &v);
      if ((x == alo && y == blo && u == ahi && v == bhi) || (x == ahi && y == bhi)) {
        // No progress (cannot happen for a correct snake): all out, all in.
        emit(DiffOp::kDelete, alo, blo, ahi - alo);
        emit(DiffOp::kInsert, ahi, blo, bhi - blo);
      } else {
        diff(alo, x, blo, y);
        emit(DiffOp::kEqual, x, y, u - x);
        diff(u, ahi, v, bhi);
      }
    }
    emit(DiffOp::kEqual, ahi, bhi, suf);
  }

  std::vector<uint32_t> a_, b_;
  std::vector<int64_t> vf_, vb_;
  std::vector<DiffOp> ops_;
};

}  // namespace

std::vector<DiffOp> diff_lines(const std::vector<std::string_view>& a,
                               const std::vector<std::string_view>& b) {
  std::vector<DiffOp> ops = Differ(a, b).run(), out;
  // Between two equal runs, the deletions first, then the insertions (as
  // unified diffs show them): the changed lines of each side are contiguous.
  for (size_t i = 0; i < ops.size();) {
    if (ops[i].kind == DiffOp::kEqual) {
      out.push_back(ops[i++]);
      continue;
    }
    DiffOp del{DiffOp::kDelete, ops[i].a, ops[i].b, 0}, ins{DiffOp::kInsert, 0, 0, 0};
    for (; i < ops.size() && ops[i].kind != DiffOp::kEqual; ++i)
      (ops[i].kind == DiffOp::kDelete ? del : ins).count += ops[i].count;
    ins.a = del.a + del.count;
    ins.b = del.b;
    if (del.count) out.push_back(del);
    if (ins.count) out.push_back(ins);
  }
  return out;
}

std::string Hunk::header() const {
  auto range = [](size_t start, size_t count) {
    if (count == 0) return fmt::format("{},0", start);
    if (count == 1) return fmt::format("{}", start + 1);
    return fmt::format("{},{}", start + 1, count);
  };
  return fmt::format("-{} +{}", range(old_start, old_count), range(new_start, new_count));
}

std::vector<Hunk> make_hunks(const std::vector<DiffOp>& ops, size_t context) {
  std::vector<Hunk> hunks;
  // Where each hunk's changes are, as op indices; an equal run longer than
  // two contexts separates hunks.
  size_t i = 0;
  while (i < ops.size()) {
    while (i < ops.size() && ops[i].kind == DiffOp::kEqual) ++i;
    if (i == ops.size()) break;
    size_t first = i, last = i;
    for (size_t j = i + 1; j < ops.size(); ++j) {
      if (ops[j].kind != DiffOp::kEqual) {
        last = j;
        continue;
      }
      if (ops[j].count > 2 * context || j + 1 == ops.size()) break;
    }
    Hunk h;
    size_t lead = first > 0 ? std::min(context, ops[first - 1].count) : 0;
    size_t trail = last + 1 < ops.size() ? std::min(context, ops[last + 1].count) : 0;
    h.old_start = ops[first].a - lead;
    h.new_start = ops[first].b - lead;
    auto equal_rows = [&](size_t a, size_t b, size_t n) {
      for (size_t k = 0; k < n; ++k) h.rows.push_back({DiffRow::kEqual, a + k, b + k});
    };
    equal_rows(h.old_start, h.new_start, lead);
    for (size_t j = first; j <= last; ++j) {
      const DiffOp& op = ops[j];
      if (op.kind == DiffOp::kEqual) {
        equal_rows(op.a, op.b, op.count);
      } else if (op.kind == DiffOp::kDelete) {
        // Deletions paired with the insertions right after them.
        const DiffOp* ins =
            j + 1 <= last && ops[j + 1].kind == DiffOp::kInsert ? &ops[j + 1] : nullptr;
        size_t n = std::max(op.count, ins ? ins->count : 0);
        for (size_t k = 0; k < n; ++k)
          h.rows.push_back({DiffRow::kChange, k < op.count ? op.a + k : std::string::npos,
                            ins && k < ins->count ? ins->b + k : std::string::npos});
        if (ins) ++j;
      } else {
        for (size_t k = 0; k < op.count; ++k)
          h.rows.push_back({DiffRow::kChange, std::string::npos, op.b + k});
      }
    }
    const DiffOp& end = ops[last];
    equal_rows(end.a + (end.kind == DiffOp::kInsert ? 0 : end.count),
               end.b + (end.kind == DiffOp::kDelete ? 0 : end.count), trail);
    for (const auto& r : h.rows) {
      h.old_count += r.old_line != std::string::npos;
      h.new_count += r.new_line != std::string::npos;
    }
    hunks.push_back(std::move(h));
    i = last + 1;
  }
  return hunks;
}

}  // namespace tlscope::analysis
