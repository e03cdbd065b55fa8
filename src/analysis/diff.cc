#include "analysis/diff.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <span>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "base/recent_set.h"

namespace tlscope::analysis {
namespace {

using model::FrameKey;

using Pattern = DoctorFigures::Pattern;

std::vector<std::pair<FrameKey, FrameFigures>> frames_of(const DoctorReport& d) {
  std::vector<std::pair<FrameKey, FrameFigures>> out;
  out.reserve(d.frames.size());
  for (const auto& f : d.frames) {
    FrameFigures x;
    x.present = true;
    x.name = f.name;
    x.compiles = f.compiles;
    x.recompiles = f.recompiles;
    x.failures = f.failures;
    x.compile_time_s = f.compile_time_s;
    out.push_back({{f.run, f.frame_id}, std::move(x)});
  }
  // The doctor lists each frame once (tests/unit/doctor_options_test.cc
  // checks it on every log): by key, each once.
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& g : d.graph_breaks)
    for (const auto& id : g.compile_ids)
      if (id.id.frame_id) {
        FrameKey key{id.run, *id.id.frame_id};
        auto it = std::lower_bound(out.begin(), out.end(), key,
                                   [](const auto& x, const FrameKey& k) { return x.first < k; });
        if (it != out.end() && it->first == key) ++it->second.graph_breaks;
      }
  return out;
}

// Each frame's reasons grouped on their own: a recompile is of one frame,
// so a pattern's count over the log is the sum of its counts in the frames,
// and its reason the first one in the frames' order. (The frames' lists
// are not copied into one: 1-2 MB for a 1 GB log.) The doctor that keeps
// only figures has done so (DoctorReport::recompile_patterns).
std::map<std::string, Pattern> recompile_patterns(const DoctorReport& d) {
  std::map<std::string, Pattern> out;
  auto add = [&](Category category, const std::string& reason, size_t compiles) {
    std::string key = reason_pattern_key(category, reason);
    auto& p = out[key];
    p.category = category;
    if (p.reason.empty()) p.reason = reason;
    p.count += static_cast<uint32_t>(compiles);
  };
  for (const auto& f : d.frames)
    for (const auto& g : group_reasons(f.recompile_reasons))
      add(g.category, g.reason, g.compile_ids.size());
  for (const auto& g : d.recompile_patterns) add(g.category, g.reason, g.compiles);  // kFigures
  return out;
}

std::map<std::string, Pattern> break_patterns(const DoctorReport& d) {
  std::map<std::string, Pattern> out;
  for (const auto& g : d.graph_breaks) {
    auto& p = out[g.normalized + "|" + g.user_frame];
    p.category = g.category;
    if (p.reason.empty()) p.reason = g.reason;
    p.where = g.user_frame;
    p.count += g.count;
  }
  return out;
}

std::vector<PatternChange> pattern_changes(const std::map<std::string, Pattern>& a,
                                           const std::map<std::string, Pattern>& b) {
  std::set<std::string> keys;
  for (const auto& [k, p] : a) keys.insert(k);
  for (const auto& [k, p] : b) keys.insert(k);
  std::vector<PatternChange> out;
  for (const auto& k : keys) {
    auto ia = a.find(k), ib = b.find(k);
    uint32_t ca = ia == a.end() ? 0 : ia->second.count, cb = ib == b.end() ? 0 : ib->second.count;
    if (ca == cb) continue;
    const Pattern& p = ia != a.end() ? ia->second : ib->second;
    out.push_back({p.category, p.reason, p.where, ca, cb});
  }
  return out;
}

// The artifact name of a log's payload files: the file's name without its
// number (F12), and output code, which is named after its source file (a
// hash of the code), under one name (the same artifact under another name
// in the other log). Kept once per artifact name (a string for each file
// took 7 MB for two 1 GB logs), and found again by the text that makes it
// among the last met (a table by text number grew with the log).
class ArtifactNames {
 public:
  explicit ArtifactNames(const model::CompileIndex& index) : index_(index) {}
  const model::CompileIndex& index() const { return index_; }

  std::string_view of(const model::PayloadFile& f) {
    bool fixed = f.name == model::PayloadFile::kFixedPath;
    uint32_t id = fixed ? f.folder : f.name;
    uint64_t text = 2 * uint64_t{id} + fixed;
    if (const Recent* r = recent_.find(id, [&](const Recent& x) { return x.text == text; }))
      return names_[r->name];
    std::string name = stem(index_.url_of(f));
    auto it = known_.find(name);
    if (it == known_.end()) {
      names_.push_back(std::move(name));
      it = known_.emplace(names_.back(), static_cast<uint32_t>(names_.size() - 1)).first;
    }
    recent_.put(id, {text, it->second});
    return names_[it->second];
  }
  // "<name> #<n>": the n-th file of that name in one compile (n > 1), kept
  // here as the names are.
  std::string_view numbered(std::string_view name, int n) {
    std::string text = std::string(name) + " #" + std::to_string(n);
    auto it = known_.find(text);
    if (it == known_.end()) {
      names_.push_back(std::move(text));
      it = known_.emplace(names_.back(), static_cast<uint32_t>(names_.size() - 1)).first;
    }
    return names_[it->second];
  }

 private:
  static std::string stem(std::string_view url) {
    std::string_view stem = url.substr(url.rfind('/') + 1);
    stem = stem.substr(0, stem.rfind('.'));
    // Without the file number: "<stem>_<n>" -> "<stem>".
    size_t us = stem.rfind('_');
    if (us != std::string_view::npos && us + 1 < stem.size() &&
        std::all_of(stem.begin() + us + 1, stem.end(), [](char c) { return c >= '0' && c <= '9'; }))
      stem = stem.substr(0, us);
    constexpr std::string_view kCode = "inductor_output_code";
    if (stem.size() > kCode.size() && stem.substr(0, kCode.size() + 1) == "inductor_output_code_")
      stem = kCode;
    return std::string(stem);
  }

  const model::CompileIndex& index_;
  // The last texts met (a text's number, twice: as a name, as a fixed path)
  // with the number of their artifact name in names_.
  struct Recent {
    uint64_t text = 0;
    uint32_t name = 0;
  };
  base::RecentSet<Recent, 256> recent_;  // 1,024 of them
  std::deque<std::string> names_;
  std::unordered_map<std::string_view, uint32_t> known_;  // views of names_
};

// The files of one compile id that hold or were made from a payload with a
// declared digest, by artifact name ("#2" for a second one of that name), in
// log order; `sorted` then orders them by name for named().
struct NamedFile {
  model::PayloadFile file;
  uint32_t id = 0;  // in its index (CompileIndex::payload_file_ids)
};
// The names are views of `names`' texts.
using NamedFiles = std::vector<std::pair<std::string_view, NamedFile>>;
NamedFiles payload_files(const model::IndexEntry& e, ArtifactNames& names) {
  NamedFiles out;
  out.reserve(e.payload_files.count);
  // How many files of each name so far: a compile has a few dozen files, a
  // few names, looked through faster than a map's nodes are made.
  std::vector<std::pair<std::string_view, int>> seen;
  names.index().visit_payload_files(e, [&](uint32_t id, const model::PayloadFile& f) {
    if (!f.md5.has()) return;
    std::string_view stem = names.of(f);
    auto it =
        std::find_if(seen.begin(), seen.end(), [&](const auto& x) { return x.first == stem; });
    if (it == seen.end()) it = seen.insert(seen.end(), {stem, 0});
    int n = ++it->second;
    out.emplace_back(n == 1 ? stem : names.numbered(stem, n), NamedFile{f, id});
  });
  return out;
}

// The same ordered by name, and one found in them: the first of that name in
// log order, should a log name two files alike.
NamedFiles sorted(NamedFiles v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  return v;
}
const NamedFile* named(const NamedFiles& by_name, std::string_view name) {
  auto it = std::lower_bound(by_name.begin(), by_name.end(), name,
                             [](const auto& x, std::string_view n) { return x.first < n; });
  return it != by_name.end() && it->first == name ? &it->second : nullptr;
}

// A compile id's label as numbers: labels in numeric order ("[0/2]" before
// "[0/10]"), equal when the labels are ("[0/1]" is attempt 0 and no attempt
// alike). The logs' compiles are paired by label.
auto label_key(const model::IndexEntry* e) {
  const trace::CompileId c = *e->id();
  auto v = [](const std::optional<uint32_t>& n) { return n ? int64_t{*n} : int64_t{-1}; };
  return std::tuple(v(c.autograd_id), v(c.frame_id), v(c.frame_compile_id), c.attempt.value_or(0));
}
bool label_less(const model::IndexEntry* x, const model::IndexEntry* y) {
  return label_key(x) < label_key(y);
}

// A log's entries with a compile id, one per label (the first in log
// order), by label: 8 bytes a compile (a map by label took about 100).
std::vector<const model::IndexEntry*> entries_of(const model::ReportModel& m) {
  std::vector<const model::IndexEntry*> out;
  for (const auto& e : m.index.entries())
    if (e.id()) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(), label_less);
  auto same = [](const auto* x, const auto* y) { return label_key(x) == label_key(y); };
  out.erase(std::unique(out.begin(), out.end(), same), out.end());
  return out;
}

// The compile ids of the two logs: those of both (paired), and those of
// one; each list in label order.
struct Paired {
  std::vector<std::pair<const model::IndexEntry*, const model::IndexEntry*>> both;
  std::vector<const model::IndexEntry*> only_a, only_b;
};
Paired pair_entries(const model::ReportModel& a, const model::ReportModel& b) {
  auto ea = entries_of(a), eb = entries_of(b);
  Paired out;
  size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    if (j == eb.size() || (i < ea.size() && label_less(ea[i], eb[j])))
      out.only_a.push_back(ea[i++]);
    else if (i == ea.size() || label_less(eb[j], ea[i]))
      out.only_b.push_back(eb[j++]);
    else
      out.both.emplace_back(ea[i++], eb[j++]);
  }
  return out;
}

// The operators whose counts differ between two graphs, by name (each list
// is in name order: trace::graph_operators), written into the store.
using Operators = const std::vector<trace::OperatorCount>*;
// The deltas of two graphs' operator lists, added to the change's store.
void operator_deltas(Operators a, Operators b, ArtifactChange* ch, DiffStore* store) {
  static const std::vector<trace::OperatorCount> kNone;
  const auto &x = a ? *a : kNone, &y = b ? *b : kNone;
  ch->store = store;
  ch->operators_at = static_cast<uint32_t>(store->deltas_added());
  for (size_t i = 0, j = 0; i < x.size() || j < y.size();) {
    bool take_x = j == y.size() || (i < x.size() && x[i].name <= y[j].name);
    bool take_y = i == x.size() || (j < y.size() && y[j].name <= x[i].name);
    uint32_t ca = take_x ? x[i].count : 0, cb = take_y ? y[j].count : 0;
    if (ca != cb) {
      store->add_delta({take_x ? x[i].name : y[j].name, ca, cb});
      ++ch->operators_n;
    }
    i += take_x;
    j += take_y;
  }
}

// The names of the operators of an entry's graphs (views of their lists),
// sorted, each once.
using Names = std::vector<std::string_view>;
Names operator_names(const model::IndexEntry& e, const model::CompileIndex& index) {
  // Each list once (files with the same graph share one), each already in
  // name order: merged.
  std::vector<uint32_t> lists;
  index.visit_payload_files(e, [&](uint32_t, const model::PayloadFile& f) {
    if (f.operators && std::find(lists.begin(), lists.end(), f.operators) == lists.end())
      lists.push_back(f.operators);
  });
  Names out;
  for (uint32_t n : lists) {
    auto ops = index.operators(n);
    if (!ops) continue;
    size_t before = out.size();
    for (const auto& op : *ops) out.push_back(op.name);
    std::inplace_merge(out.begin(), out.begin() + static_cast<ptrdiff_t>(before), out.end());
  }
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}
bool has(const Names& names, std::string_view name) {
  return std::binary_search(names.begin(), names.end(), name);
}

// A compile's operator summary from its changed artifacts (already with
// their deltas: `changed` from `first` on) and the operators of all its
// graphs on each side.
CompileOperators compile_operators(std::string_view id, const model::IndexEntry& a,
                                   const model::CompileIndex& index_a, const model::IndexEntry& b,
                                   const model::CompileIndex& index_b, const ChangeList& changed,
                                   size_t first) {
  CompileOperators c;
  c.compile_id = id;
  auto na = operator_names(a, index_a), nb = operator_names(b, index_b);
  auto names_only_in = [](const auto& x, const auto& y, std::vector<std::string_view>* out) {
    std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(*out));
  };
  names_only_in(nb, na, &c.added);
  names_only_in(na, nb, &c.removed);
  std::vector<bool> counted(na.size());  // by place in na
  for (size_t i = first; i < changed.size(); ++i)
    for (const auto& d : changed[i].operators()) {
      auto at = std::lower_bound(na.begin(), na.end(), d.name);
      if (at == na.end() || *at != d.name || !has(nb, d.name)) continue;
      size_t k = static_cast<size_t>(at - na.begin());
      if (counted[k]) continue;
      counted[k] = true;
      c.counts.push_back({d, changed[i].artifact});
    }
  return c;
}

// The two logs' artifact names, and the report the diff adds to.
struct Comparison {
  ArtifactNames a, b;
  DiffReport* r;
};

// An artifact of compile id `id` on one side or both.
ArtifactChange change(const Comparison& c, std::string_view id, std::string_view name) {
  ArtifactChange ch;
  ch.compile_id = id;
  ch.artifact = c.r->store->text(name);
  ch.index_a = &c.a.index();
  ch.index_b = &c.b.index();
  return ch;
}

// The artifacts of a compile id both logs have, compared by payload (and
// apart from noise), and the operators of its graphs.
void compare_compile(const model::IndexEntry& e, const model::IndexEntry& other, Comparison* c) {
  DiffReport* r = c->r;
  size_t first_change = r->artifacts.size();
  std::string_view id = r->store->text(e.label());
  r->compile_ids_in_both.push_back(id);
  auto pa = payload_files(e, c->a), pb = payload_files(other, c->b);
  NamedFiles b_by_name = sorted(pb), a_by_name = sorted(pa);
  const auto &ta = c->a.index().texts(), &tb = c->b.index().texts();
  for (const auto& [name, named_a] : pa) {
    const model::PayloadFile& fa = named_a.file;
    const NamedFile* named_b = named(b_by_name, name);
    ArtifactChange ch = change(*c, id, name);
    ch.a = named_a.id;
    if (!named_b) {
      ch.kind = ArtifactChange::kOnlyA;
      r->artifacts.push_back(std::move(ch));
      continue;
    }
    ++r->artifacts_compared;
    const model::PayloadFile* fb = &named_b->file;
    if (fa.md5.same(fb->md5, ta, tb)) continue;
    ch.b = named_b->id;
    auto oa = c->a.index().operators(fa.operators), ob = c->b.index().operators(fb->operators);
    operator_deltas(oa ? &*oa : nullptr, ob ? &*ob : nullptr, &ch, r->store.get());
    bool noise = (fa.noise_only && fb->noise_only) ||
                 (fa.has_digest && fb->has_digest && fa.digest == fb->digest);
    (noise ? r->noise_only : r->artifacts).push_back(std::move(ch));
  }
  for (const auto& [name, fb] : pb)
    if (!named(a_by_name, name)) {
      ArtifactChange ch = change(*c, id, name);
      ch.kind = ArtifactChange::kOnlyB;
      ch.b = fb.id;
      r->artifacts.push_back(std::move(ch));
    }
  CompileOperators ops =
      compile_operators(id, e, c->a.index(), other, c->b.index(), r->artifacts, first_change);
  if (!ops.added.empty() || !ops.removed.empty() || !ops.counts.empty())
    r->operators.push_back(ops);
}

// Every payload of both the same bytes under the same artifact names (the
// files' places say which bytes; a file without one is not known to be).
// `px` and `py` are the two compiles' payload files (`py` sorted by name).
bool same_payloads(const NamedFiles& px, const NamedFiles& py, const model::IndexEntry& x,
                   const ArtifactNames& nx, const model::IndexEntry& y, const ArtifactNames& ny) {
  if (px.size() != py.size()) return false;
  for (const auto& [name, named_f] : px) {
    const model::PayloadFile& f = named_f.file;
    const NamedFile* named_g = named(py, name);
    const model::PayloadFile* g = named_g ? &named_g->file : nullptr;
    if (!g || !f.placed || !g->placed ||
        !f.md5.same(g->md5, nx.index().texts(), ny.index().texts()) ||
        f.bytes_hash != g->bytes_hash)
      return false;
  }
  // A payload outside payload_files (no declared digest) still has operators.
  auto unnamed = [](const model::IndexEntry& e, const model::CompileIndex& index) {
    bool any = false;
    index.visit_payload_files(e, [&](uint32_t, const model::PayloadFile& f) {
      any = any || ((f.placed || f.noted) && !f.md5.has());
    });
    return any;
  };
  return !unnamed(x, nx.index()) && !unnamed(y, ny.index());
}

// The artifacts of two paired compiles whose bytes differ: the pairs of
// placed files to compare, and the keys of placed files paired with one that
// is not (whose digest is wanted).
void changed_payloads(const NamedFiles& px, const ArtifactNames& nx, const NamedFiles& py,
                      const ArtifactNames& ny, CompilesToCompare* out) {
  for (const auto& [name, named_f] : px) {
    const NamedFile* named_g = named(py, name);
    if (!named_g) continue;
    const model::PayloadFile &f = named_f.file, &g = named_g->file;
    if (f.md5.same(g.md5, nx.index().texts(), ny.index().texts())) continue;
    if (f.placed && g.placed) {
      out->pairs.emplace_back(named_f.id, named_g->id);
      continue;
    }
    if (f.placed) out->digest_keys.insert(f.key);
    if (g.placed) out->digest_keys.insert(g.key);
  }
}

}  // namespace

std::string_view DiffStore::text(std::string_view s) {
  if (auto it = known_.find(s); it != known_.end()) return *it;
  return *known_.insert(texts_.emplace_back(s)).first;
}

void CompileOperatorsList::push_back(const CompileOperators& c) {
  Entry e;
  e.compile_id = c.compile_id;
  e.names_at = static_cast<uint32_t>(names_.size());
  e.added = static_cast<uint32_t>(c.added.size());
  e.removed = static_cast<uint32_t>(c.removed.size());
  e.counts_at = static_cast<uint32_t>(counts_.size());
  e.counts = static_cast<uint32_t>(c.counts.size());
  for (auto n : c.added) names_.add(n);
  for (auto n : c.removed) names_.add(n);
  for (const auto& k : c.counts) counts_.add(k);
  entries_.add(e);
}

CompileOperators CompileOperatorsList::operator[](size_t i) const {
  Entry e = entries_.get(i);
  CompileOperators c;
  c.compile_id = e.compile_id;
  c.added.reserve(e.added);
  for (uint32_t k = 0; k < e.added; ++k) c.added.push_back(names_.get(e.names_at + k));
  c.removed.reserve(e.removed);
  for (uint32_t k = 0; k < e.removed; ++k)
    c.removed.push_back(names_.get(e.names_at + e.added + k));
  c.counts.reserve(e.counts);
  for (uint32_t k = 0; k < e.counts; ++k) c.counts.push_back(counts_.get(e.counts_at + k));
  return c;
}

std::vector<OperatorDelta> DiffStore::deltas(size_t first, size_t n) const {
  std::vector<OperatorDelta> out;
  out.reserve(n);
  for (size_t i = first; i < first + n; ++i) out.push_back(deltas_.get(i));
  return out;
}

std::optional<model::PayloadFile> ArtifactChange::file_of(uint32_t id,
                                                          const model::CompileIndex* index) {
  if (id == kNoFile) return std::nullopt;
  return index->payload_file(id);
}

ArtifactChange::Files ArtifactChange::files() const {
  auto fa = payload_a(), fb = payload_b();
  return {url_of(fa, index_a), url_of(fb, index_b), md5_of(fa, index_a), md5_of(fb, index_b)};
}

std::string ArtifactChange::text_of(const std::optional<model::PayloadFile>& f,
                                    const model::CompileIndex* index) {
  if (!f) return {};
  return f->holds_payload ? index->url_of(*f)
                          : "payloads/" + model::safe_segment(f->md5.text(index->texts())) + ".txt";
}

CompilesToCompare compiles_to_compare(const model::ReportModel& a, const model::ReportModel& b) {
  CompilesToCompare out;
  ArtifactNames na(a.index), nb(b.index);
  for (auto [x, y] : pair_entries(a, b).both) {
    NamedFiles px = payload_files(*x, na), py = sorted(payload_files(*y, nb));
    if (same_payloads(px, py, *x, na, *y, nb)) continue;
    out.a.push_back(*a.index.number_of(*x->id()));  // paired entries have ids
    out.b.push_back(*b.index.number_of(*y->id()));
    changed_payloads(px, na, py, nb, &out);
  }
  return out;
}

DoctorFigures figures_of(const DoctorReport& d) {
  return {d.totals, frames_of(d), recompile_patterns(d), break_patterns(d)};
}

DiffReport diff_logs(const model::ReportModel& a, const DoctorFigures& da,
                     const model::ReportModel& b, const DoctorFigures& db, size_t resident_chunks) {
  DiffReport r;
  if (resident_chunks) {
    r.artifacts = ChangeList(resident_chunks);
    r.noise_only = ChangeList(resident_chunks);
    r.store->spill_deltas(resident_chunks);
    r.operators = CompileOperatorsList(resident_chunks);
  }
  r.a = da.totals;
  r.b = db.totals;
  r.several_runs = da.several_runs() || db.several_runs();
  // Line statistics: a line that failed its MD5 check, or did not parse,
  // in one log and not the other is a difference.
  std::map<std::string, std::pair<uint64_t, uint64_t>> stats;
  for (auto [name, v] : a.stats.nonzero()) stats[name].first = v;
  for (auto [name, v] : b.stats.nonzero()) stats[name].second = v;
  stats.erase("ok");  // records read: differs whenever the compiles do
  for (const auto& [name, v] : stats)
    if (v.first != v.second) r.stats.push_back({name, v.first, v.second});
  // Each list in label order, numeric: "[0/2]" before "[0/10]".
  Paired paired = pair_entries(a, b);
  for (const auto* e : paired.only_a) r.compile_ids_only_a.push_back(e->label());
  for (const auto* e : paired.only_b) r.compile_ids_only_b.push_back(e->label());

  // Both lists by key: each key of either, in order.
  const auto &fa = da.frames, &fb = db.frames;
  for (auto ia = fa.begin(), ib = fb.begin(); ia != fa.end() || ib != fb.end();) {
    bool in_a = ia != fa.end() && (ib == fb.end() || ia->first <= ib->first);
    bool in_b = ib != fb.end() && (ia == fa.end() || ib->first <= ia->first);
    FrameKey k = in_a ? ia->first : ib->first;
    FrameFigures x = in_a ? (ia++)->second : FrameFigures{},
                 y = in_b ? (ib++)->second : FrameFigures{};
    FrameFigures xs = x, ys = y;
    xs.name = ys.name = "";
    xs.compile_time_s = ys.compile_time_s = 0;  // times differ run to run; shown, not compared
    if (xs == ys) continue;
    r.frames.push_back({k.first, k.second, x, y});
  }
  r.recompile_reasons = pattern_changes(da.recompile_reasons, db.recompile_reasons);
  r.graph_breaks = pattern_changes(da.graph_breaks, db.graph_breaks);

  Comparison c{ArtifactNames(a.index), ArtifactNames(b.index), &r};
  for (auto [x, y] : paired.both) compare_compile(*x, *y, &c);
  return r;
}

}  // namespace tlscope::analysis
