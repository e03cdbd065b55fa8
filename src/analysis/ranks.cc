#include "analysis/ranks.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "model/collectives.h"
#include "trace/md5.h"

namespace tlscope::analysis {
namespace {

std::string first_segment(const std::string& url) { return url.substr(0, url.find('/')); }

template <typename Key>
std::vector<std::vector<uint32_t>> group_by(const std::map<uint32_t, Key>& sig) {
  std::map<Key, std::vector<uint32_t>> groups;
  for (const auto& [rank, key] : sig) groups[key].push_back(rank);
  std::vector<std::vector<uint32_t>> out;
  for (auto& [key, ranks] : groups) out.push_back(std::move(ranks));
  // Deterministic order: by lowest rank (the reference's is hash order, J27).
  std::sort(out.begin(), out.end());
  return out;
}

std::string join(const std::vector<std::string>& parts, const char* sep) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
  return s;
}

}  // namespace

double ns_to_ms(double ns) {
  double ms = ns / 1e6;
  return std::round(ms * 1000.0) / 1000.0;  // std::round is half away from zero
}

std::string rank_list(const std::vector<uint32_t>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

std::string rank_ranges(const std::vector<uint32_t>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += j > i ? fmt::format("{}-{}", ranks[i], ranks[j]) : std::to_string(ranks[i]);
    i = j + 1;
  }
  return s;
}

RankDiagnosis diagnose_rank(uint32_t rank, const std::string& log, const model::ReportModel& m) {
  DoctorFold fold;
  return diagnose_rank(rank, log, m, &fold);
}

RankDiagnosis diagnose_rank(uint32_t rank, const std::string& log, const model::ReportModel& m,
                            DoctorFold* fold) {
  RankDiagnosis r;
  r.log = {rank, log};
  r.doctor = fold->finish(m);
  r.summary = summarize_rank(rank, log, m, r.doctor);
  return r;
}

namespace {

// A folder's cache status from the name of one of its files: a miss outranks
// a hit, a hit a bypass.
void note_cache(const std::string& folder, const std::string& name,
                std::map<std::string, std::string>* cache) {
  std::string status = name.find("cache_miss") != std::string::npos     ? "miss"
                       : name.find("cache_hit") != std::string::npos    ? "hit"
                       : name.find("cache_bypass") != std::string::npos ? "bypass"
                                                                        : "";
  if (status.empty()) return;
  auto rank_of = [](const std::string& s) { return s == "miss" ? 3 : s == "hit" ? 2 : 1; };
  auto [c, fresh] = cache->try_emplace(folder, status);
  if (!fresh && rank_of(status) > rank_of(c->second)) c->second = status;
}

// A graph whose collectives in the schedule and in the generated code do not
// match, or whose code waits for fewer of them than it starts (J30).
std::optional<ParityGraph> parity_of(const std::string& folder, const model::FolderData& data,
                                    const std::string& compile_id) {
  std::map<std::string, int> sched;
  for (const auto& op : *data.collective_schedule) {
    std::string kind = model::normalize_collective(op);
    if (!kind.empty()) ++sched[kind];
  }
  int total = 0, offset = 0;
  std::set<std::string> kinds;
  for (const auto& [k, n] : *data.code_collectives) total += n, kinds.insert(k);
  for (const auto& [k, n] : sched) kinds.insert(k);
  for (const auto& k : kinds) {
    auto a = sched.count(k) ? sched.at(k) : 0;
    auto b = data.code_collectives->count(k) ? data.code_collectives->at(k) : 0;
    offset += std::abs(a - b);
  }
  int missing = std::max(0, total - data.code_waits);
  if (offset == 0 && missing == 0) return std::nullopt;
  return ParityGraph{folder, compile_id, offset, missing};
}

}  // namespace

RankSummary summarize_rank(uint32_t rank, const std::string& log, const model::ReportModel& m,
                           const DoctorReport& doctor) {
  RankSummary r;
  r.rank = rank;
  r.log = log;
  std::vector<const model::Output*> outputs;
  for (const auto& e : m.index.entries()) {
    if (auto id = e.id()) r.compile_ids.insert(id->display());
    for (const auto& o : e.outputs) {
      outputs.push_back(&o);
      if (o.is_link) continue;
      std::string folder = first_segment(o.url);
      auto [it, inserted] = r.folder_to_id.try_emplace(folder, e.json_key());
      if (!inserted && e.json_key() < it->second) it->second = e.json_key();
      note_cache(folder, o.listed_name(), &r.folder_cache);
    }
  }
  std::sort(outputs.begin(), outputs.end(),
            [](const auto* a, const auto* b) { return a->number < b->number; });
  for (const auto* o : outputs) r.cache_sequence += o->suffix();

  for (const auto& [folder, data] : m.folders) {
    if (data.collective_schedule && !data.collective_schedule->empty())
      r.schedules.emplace_back(folder, *data.collective_schedule);
    if (data.runtime_ops && !data.runtime_ops->empty())
      r.runtimes.push_back({folder, *data.runtime_ops, data.tensor_meta_md5});
    if (data.collective_schedule && data.code_collectives) {
      auto id = r.folder_to_id.find(folder);
      if (auto p = parity_of(folder, data, id == r.folder_to_id.end() ? "unknown" : id->second))
        r.parity.push_back(*p);
    }
  }
  if (m.graph_execution_order) {
    std::vector<std::string> order;
    for (const auto& id : *m.graph_execution_order) order.push_back("[" + id + "]");
    r.execution_order = std::move(order);
  }
  r.totals = doctor.totals;
  for (const auto& f : doctor.frames)
    for (const auto& rr : f.recompile_reasons)
      r.recompile_categories[analysis::ref_label(rr.compile_id, doctor.several_runs())] +=
          std::string(category_name(rr.category)) + " ";
  for (const auto& g : doctor.graph_breaks)
    r.graph_break_keys.push_back(
        fmt::format("{}|{}|{}", category_name(g.category), g.normalized, g.count));
  std::sort(r.graph_break_keys.begin(), r.graph_break_keys.end());
  r.chromium_events = m.chromium.events;
  r.no_records = m.source_kind == "torch_logs" ? m.metrics.empty() && m.graph_break_notes.empty()
                                               : m.stats.ok == 0;
  return r;
}

namespace {
// MD5 of a list of strings, each length-prefixed so that no two lists share
// an encoding.
class ListDigest {
 public:
  void add(const std::string& s) { text_ += std::to_string(s.size()) + ":" + s; }
  std::string hex() const { return trace::to_hex(trace::md5(text_)); }

 private:
  std::string text_;
};
}  // namespace

OpDigests op_digests(const RankSummary& r) {
  if (r.digests) return *r.digests;
  OpDigests d;
  ListDigest all;
  std::map<std::string, ListDigest> by_id;
  for (const auto& [folder, ops] : r.schedules) {
    auto id = r.folder_to_id.find(folder);
    auto& slot = by_id[id == r.folder_to_id.end() ? folder : id->second];
    for (const auto& op : ops) all.add(op), slot.add(op);
  }
  d.collectives = all.hex();
  for (const auto& [id, digest] : by_id) d.schedule_by_id[id] = digest.hex();
  for (const auto& g : r.runtimes) {
    double total = 0;
    for (const auto& op : g.ops) total += op.estimated_runtime_ns;
    d.runtime_totals.push_back(total);
  }
  return d;
}

void drop_ops(RankSummary* r) {
  if (r->digests) return;
  r->digests = op_digests(*r);
  for (auto& [folder, ops] : r->schedules) std::vector<std::string>().swap(ops);
  for (auto& g : r->runtimes) std::vector<model::RuntimeOp>().swap(g.ops);
}

ExecOrderResult analyze_execution_order(
    const std::map<uint32_t, std::vector<std::string>>& orders,
    const std::map<std::pair<uint32_t, std::string>, std::vector<std::string>>& schedules,
    const std::map<std::pair<uint32_t, std::string>, std::string>& cache_status) {
  ExecOrderResult res;
  if (orders.size() < 2) return res;
  res.available = true;
  size_t max_len = 0;
  for (const auto& [r, o] : orders) max_len = std::max(max_len, o.size());
  std::set<uint32_t> sched_bad, cache_bad;
  for (size_t i = 0; i < max_len; ++i) {
    std::vector<std::pair<uint32_t, std::string>> present;
    for (const auto& [r, o] : orders)
      if (i < o.size()) present.emplace_back(r, o[i]);
    std::set<std::string> ids;
    for (const auto& p : present) ids.insert(p.second);
    if (ids.size() >= 2) res.order_differs = true;
    std::set<std::vector<std::string>> sched_values;
    size_t with_sched = 0;
    std::set<std::string> cache_values;
    size_t with_cache = 0;
    for (const auto& p : present) {
      auto s = schedules.find(p);
      if (s != schedules.end()) ++with_sched, sched_values.insert(s->second);
      auto c = cache_status.find(p);
      if (c != cache_status.end() && !c->second.empty())
        ++with_cache, cache_values.insert(c->second);
    }
    if (with_sched >= 2 && sched_values.size() > 1)
      for (const auto& p : present) sched_bad.insert(p.first);
    if (with_cache >= 2 && cache_values.size() > 1)
      for (const auto& p : present) cache_bad.insert(p.first);
  }
  res.schedule_mismatch_ranks.assign(sched_bad.begin(), sched_bad.end());
  res.cache_mismatch_ranks.assign(cache_bad.begin(), cache_bad.end());
  return res;
}

namespace {

using Ranks = std::vector<const RankSummary*>;

void runtime_analysis(const Ranks& ranks, const std::map<uint32_t, OpDigests>& digests,
                      MultiRankAnalysis* a) {
  std::vector<const RankSummary*> with;
  for (const auto* r : ranks)
    if (!r->runtimes.empty()) with.push_back(r);
  a->has_runtimes = !with.empty();
  if (with.empty()) return;
  size_t n = with[0]->runtimes.size();
  for (const auto* r : with)
    if (r->runtimes.size() != n) {
      a->runtime_mismatched_counts = true;
      return;
    }
  for (size_t i = 0; i < n; ++i) {
    RuntimeRow row;
    row.graph_index = i;
    row.graph_id = with[0]->runtimes[i].graph;
    double lo = 0, hi = 0;
    bool first = true;
    for (const auto* r : with) {
      double total = digests.at(r->rank).runtime_totals[i];
      // Ties go to the later rank for both ends, as in the reference.
      if (first || total <= lo) lo = total, row.fastest_rank = r->rank;
      if (first || total >= hi) hi = total, row.slowest_rank = r->rank;
      first = false;
    }
    row.fastest_ms = ns_to_ms(lo);
    row.slowest_ms = ns_to_ms(hi);
    row.delta_ms = ns_to_ms(hi - lo);
    a->runtime_rows.push_back(row);
  }
  std::stable_sort(a->runtime_rows.begin(), a->runtime_rows.end(),
                   [](const auto& x, const auto& y) { return x.graph_id < y.graph_id; });
}

// Compile ids in numeric order ("0/2" before "0/10"); unparsable ones last.
struct ByCompileId {
  bool operator()(const std::string& a, const std::string& b) const {
    auto pa = trace::parse_bare_compile_id(a), pb = trace::parse_bare_compile_id(b);
    if (pa && pb) {
      auto key = [](const trace::CompileId& c) {
        auto v = [](const std::optional<uint32_t>& x) { return x ? int64_t{*x} : int64_t{-1}; };
        return std::tuple(v(c.autograd_id), v(c.frame_id), v(c.frame_compile_id), v(c.attempt));
      };
      if (key(*pa) != key(*pb)) return key(*pa) < key(*pb);
    } else if (pa.has_value() != pb.has_value()) {
      return pa.has_value();
    }
    return a < b;
  }
};

// The first compile id whose recompile reasons differ between ranks.
std::string first_recompile_difference(const Ranks& ranks) {
  std::set<std::string, ByCompileId> all;
  for (const RankSummary* r : ranks)
    for (const auto& [id, c] : r->recompile_categories) all.insert(id);
  for (const auto& id : all) {
    std::set<std::string> seen;
    for (const RankSummary* r : ranks) {
      auto it = r->recompile_categories.find(id);
      seen.insert(it == r->recompile_categories.end() ? "" : it->second);
    }
    if (seen.size() > 1) return id;
  }
  return "";
}

// The first compile id that some rank does not have.
std::string first_missing_id(const Ranks& ranks) {
  std::set<std::string, ByCompileId> union_ids;
  for (const RankSummary* r : ranks) union_ids.insert(r->compile_ids.begin(), r->compile_ids.end());
  for (const auto& id : union_ids) {
    bool everywhere = true;
    for (const RankSummary* r : ranks) everywhere &= r->compile_ids.count(id) > 0;
    if (!everywhere) return id;
  }
  return "";
}

void doctor_divergence(const Ranks& ranks, MultiRankAnalysis* a) {
  auto add = [&](const std::string& what, const auto& sig, const std::string& first) {
    auto groups = group_by(sig);
    if (groups.size() > 1) a->doctor.push_back({what, groups, first});
  };
  std::map<uint32_t, std::string> recompiles, breaks, failures, ids;
  for (const RankSummary* r : ranks) {
    std::string s;
    for (const auto& [id, cats] : r->recompile_categories) s += id + ":" + cats + ";";
    recompiles[r->rank] = fmt::format("{}|{}", r->totals.recompiles, s);
    breaks[r->rank] = join(r->graph_break_keys, ";");
    failures[r->rank] = std::to_string(r->totals.failures);
    ids[r->rank] =
        join(std::vector<std::string>(r->compile_ids.begin(), r->compile_ids.end()), ",");
  }
  add("compile ids", ids, first_missing_id(ranks));
  add("recompiles", recompiles, first_recompile_difference(ranks));
  add("graph breaks", breaks, "");
  add("failures", failures, "");
}

}  // namespace

namespace {

// A rank's runtime fingerprints, in graph order, joined.
std::string tensor_meta_of(const RankSummary& r) {
  std::vector<const RankGraphRuntime*> sorted;
  for (const auto& g : r.runtimes) sorted.push_back(&g);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* x, const auto* y) { return x->graph < y->graph; });
  std::vector<std::string> prints;
  for (const auto* g : sorted) prints.push_back(g->fingerprint);
  return join(prints, ",");
}

// Ranks grouped by what they cached, their collectives and tensor metadata;
// then the runtime analysis.
void group_ranks(const Ranks& ranks, std::map<uint32_t, OpDigests>* digests, MultiRankAnalysis* a) {
  std::map<uint32_t, std::string> cache, collectives, meta;
  for (const auto* r : ranks) {
    const OpDigests& d = (*digests)[r->rank] = op_digests(*r);
    cache[r->rank] = r->cache_sequence;
    if (!r->schedules.empty()) a->has_schedules = true;
    collectives[r->rank] = d.collectives;
    if (!r->runtimes.empty()) meta[r->rank] = tensor_meta_of(*r);
  }
  a->cache_groups = group_by(cache);
  if (a->has_schedules) a->collective_groups = group_by(collectives);
  a->tensor_meta_groups = group_by(meta);
  runtime_analysis(ranks, *digests, a);
}

// The execution order of graphs compared across ranks (F69), or why not.
void execution_order(const Ranks& ranks, std::map<uint32_t, OpDigests>& digests,
                     MultiRankAnalysis* a) {
  std::map<uint32_t, std::vector<std::string>> orders;
  std::map<std::pair<uint32_t, std::string>, std::vector<std::string>> schedules;
  std::map<std::pair<uint32_t, std::string>, std::string> cache_status;
  for (const auto* r : ranks) {
    if (r->execution_order) orders[r->rank] = *r->execution_order;
    // Each compile id's schedule by its digest: equal digests, equal lists.
    for (const auto& [id, digest] : digests[r->rank].schedule_by_id)
      schedules[{r->rank, id}] = {digest};
    for (const auto& [folder, status] : r->folder_cache) {
      auto id = r->folder_to_id.find(folder);
      cache_status[{r->rank, id == r->folder_to_id.end() ? folder : id->second}] = status;
    }
  }
  a->exec_order = analyze_execution_order(orders, schedules, cache_status);
  if (a->exec_order.available) return;
  if (ranks.size() < 2)
    a->exec_order.why_unavailable = fmt::format(
        "It compares two or more ranks, and only rank {} has a readable log.", ranks[0]->rank);
  else if (orders.empty())
    a->exec_order.why_unavailable = "No rank logged its graph execution order.";
  else
    a->exec_order.why_unavailable = fmt::format(
        "Only rank {} logged its graph execution order; it takes two or more to compare.",
        orders.begin()->first);
}

}  // namespace

MultiRankAnalysis analyze_ranks(const std::vector<RankSummary>& in) {
  MultiRankAnalysis a;
  Ranks ranks;
  for (const auto& r : in) {
    if (r.error.empty() && !r.no_records)
      ranks.push_back(&r);
    else
      a.left_out.push_back(r.rank);
  }
  std::sort(ranks.begin(), ranks.end(),
            [](const auto* x, const auto* y) { return x->rank < y->rank; });
  std::sort(a.left_out.begin(), a.left_out.end());
  for (const auto* r : ranks) a.ranks.push_back(r->rank);
  if (ranks.empty()) {
    a.exec_order.why_unavailable = "No rank has a readable log to compare.";
    return a;
  }
  for (const auto* r : ranks) a.compile_id_divergence |= r->compile_ids != ranks[0]->compile_ids;
  std::map<uint32_t, OpDigests> digests;
  group_ranks(ranks, &digests, &a);
  execution_order(ranks, digests, &a);
  doctor_divergence(ranks, &a);
  return a;
}

}  // namespace tlscope::analysis
