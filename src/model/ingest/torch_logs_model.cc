#include "model/ingest/torch_logs_model.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace tlscope::ingest {
namespace {

namespace tl = trace::torch_logs;

class TextModel {
 public:
  explicit TextModel(model::ReportModel* m) : m_(m) {}

  trace::CompileId recompile(const tl::Recompile& r) {
    auto [fid, n] = place(r.compile_id, r.function, r.file, r.line, /*next=*/true);
    compile(fid, n, r.function, r.file, r.line);
    if (!r.reasons.empty()) m_->recompile_reasons.push_back({id(fid, n), 1, r.reasons});
    return id(fid, n);
  }

  void limit(const tl::LimitHit& h) {
    // The attempt that hit the limit: its "Recompiling function" record
    // when the text has it (the same compile id, or the frame's last
    // recompile); a limit hit alone adds no compile of its own, so that
    // recompiles count "Recompiling function" events.
    auto printed = trace::parse_bare_compile_id(h.compile_id);
    auto known = find_frame(h.function, h.file, h.line);
    std::pair<uint32_t, uint32_t> at;
    if (printed && printed->frame_id && printed->frame_compile_id &&
        records_.count({*printed->frame_id, *printed->frame_compile_id})) {
      at = {*printed->frame_id, *printed->frame_compile_id};
    } else if (known && last_.count(*known)) {
      at = {*known, last_[*known]};
    } else {
      uint32_t fid = printed && printed->frame_id ? *printed->frame_id
                                                  : frame_of(h.function, h.file, h.line);
      name_frame(h.function, h.file, h.line, fid);
      used_.insert({fid, 0});
      last_.try_emplace(fid, 0);
      at = {fid, 0};
    }
    model::MetricsRecord& rec = compile(at.first, at.second, h.function, h.file, h.line);
    rec.fail_type = "RecompileLimitExceeded";
    std::string why = "torch._dynamo hit config." + h.limit_name + " (" + std::to_string(h.limit) +
                      "): recompile limit exceeded";
    if (!h.last_reason.empty()) why += "; last reason: " + h.last_reason;
    rec.fail_reason = m_->keep(why);
  }

  void graph_break(tl::GraphBreak g, std::map<std::string, tl::GraphBreak>* by_place) {
    std::string place_key = g.file + ":" + std::to_string(g.line);
    if (g.duplicate) {
      // One more of the break first reported at this place.
      auto it = by_place->find(place_key);
      if (it != by_place->end()) {
        g.text = it->second.text;
        g.function = it->second.function;
      }
    } else {
      (*by_place)[place_key] = g;
    }
    const std::string& text = g.text;
    // The break belongs to the compile its prefix names; the frame is
    // listed with its first compile (a break is no recompile).
    auto printed = trace::parse_bare_compile_id(g.compile_id);
    std::pair<uint32_t, uint32_t> at;
    if (printed && printed->frame_id && printed->frame_compile_id) {
      at = {*printed->frame_id, *printed->frame_compile_id};
      name_frame(g.function, g.file, 0, at.first);
      used_.insert({at.first, 0});
      last_.try_emplace(at.first, 0);
      compile(at.first, 0, g.function, g.file, 0);
    } else {
      // (the break's line is not the function's first: frames by name)
      at = place("", g.function, g.file, 0, /*next=*/false);
      compile(at.first, at.second, g.function, g.file, 0);
    }
    m_->graph_break_notes.push_back({id(at.first, at.second), 1, m_->keep(text), g.count});
  }

 private:
  // Frames by function and file name: one message names the file with its
  // folder, another without (L0: "for function 'g' (b.py:7)"); and by first
  // line where the message gives it (two `forward`s of one file are two
  // frames). A message without a line takes the first frame of that name.
  static std::string frame_key(const std::string& fn, const std::string& file) {
    size_t slash = file.find_last_of("/\\");
    return fn + "\n" + (slash == std::string::npos ? file : file.substr(slash + 1));
  }

  std::optional<uint32_t> find_frame(const std::string& fn, const std::string& file,
                                     int64_t line) {
    if (fn.empty()) return std::nullopt;  // the text does not say which
    auto it = frames_.find(frame_key(fn, file));
    if (it == frames_.end() || it->second.empty()) return std::nullopt;
    if (line <= 0) return it->second.front().second;
    for (auto& [l, fid] : it->second)
      if (l == line) return fid;
    for (auto& [l, fid] : it->second)
      if (l <= 0) {
        l = line;  // now known
        return fid;
      }
    return std::nullopt;
  }

  void name_frame(const std::string& fn, const std::string& file, int64_t line, uint32_t fid) {
    if (fn.empty() || find_frame(fn, file, line)) return;
    frames_[frame_key(fn, file)].push_back({line, fid});
  }

 public:
  // Frame ids the text prints are taken before any is numbered.
  void reserve(const std::string& printed) {
    if (auto c = trace::parse_bare_compile_id(printed); c && c->frame_id)
      used_.insert({*c->frame_id, 0});
  }

  // Compile ids of text: frame and compile, no attempt (text prints none).
  static trace::CompileId id(uint32_t frame, uint32_t n) {
    trace::CompileId c;
    c.frame_id = frame;
    c.frame_compile_id = n;
    return c;
  }

 private:

  // The frame and compile an event belongs to: PyTorch's id when printed,
  // else the frame by its function and file, and its next compile (a
  // recompile) or its current one (a graph break).
  std::pair<uint32_t, uint32_t> place(const std::string& printed, const std::string& fn,
                                      const std::string& file, int64_t line, bool next) {
    if (auto c = trace::parse_bare_compile_id(printed); c && c->frame_id && c->frame_compile_id) {
      name_frame(fn, file, line, *c->frame_id);
      used_.insert({*c->frame_id, 0});
      last_[*c->frame_id] = std::max(last_[*c->frame_id], *c->frame_compile_id);
      return {*c->frame_id, *c->frame_compile_id};
    }
    uint32_t fid = frame_of(fn, file, line);
    auto last = last_.find(fid);
    uint32_t n = last == last_.end() ? (next ? 1 : 0) : (next ? last->second + 1 : last->second);
    last_[fid] = n;
    return {fid, n};
  }

  // The frame id of a function: the one it has, else the next one not used.
  uint32_t frame_of(const std::string& fn, const std::string& file, int64_t line) {
    if (auto fid = find_frame(fn, file, line)) return *fid;
    while (used_.count(next_frame_)) ++next_frame_;
    uint32_t fid = next_frame_;
    used_.insert({fid, 0});
    if (!fn.empty()) frames_[frame_key(fn, file)].push_back({line, fid});
    return fid;
  }

  // The metrics record of compile fid/n, made with the frame's first
  // compile (0) when the text shows a recompile first: a recompile means
  // the frame compiled before.
  model::MetricsRecord& compile(uint32_t fid, uint32_t n, const std::string& fn,
                                const std::string& file, int64_t line) {
    for (uint32_t k = 0; k <= n; ++k) {
      if (k != 0 && k != n) continue;
      auto key = std::make_pair(fid, k);
      if (records_.count(key)) continue;
      model::MetricsRecord r;
      r.id = id(fid, k);
      r.co_name = m_->keep(fn);
      r.co_filename = m_->keep(file);
      if (line > 0) r.co_firstlineno = line;
      records_[key] = m_->metrics.size();
      m_->metrics.push_back(std::move(r));
    }
    model::MetricsRecord& r = m_->metrics[records_[{fid, n}]];
    if (r.co_name.empty()) r.co_name = m_->keep(fn);
    if (r.co_filename.empty()) r.co_filename = m_->keep(file);
    return r;
  }

  model::ReportModel* m_;
  std::map<std::string, std::vector<std::pair<int64_t, uint32_t>>> frames_;  // key -> (line, id)
  std::map<uint32_t, int> used_;
  std::map<uint32_t, uint32_t> last_;
  std::map<std::pair<uint32_t, uint32_t>, size_t> records_;
  uint32_t next_frame_ = 0;
};

}  // namespace

std::vector<uint32_t> text_ranks(const tl::Events& events) {
  std::set<uint32_t> ranks;
  auto add = [&](const auto& list) {
    for (const auto& e : list)
      if (e.rank) ranks.insert(*e.rank);
  };
  add(events.recompiles);
  add(events.limit_hits);
  add(events.graph_breaks);
  add(events.guards);
  return {ranks.begin(), ranks.end()};
}

void add_text_events(const tl::Events& events, model::ReportModel* model,
                     std::optional<uint32_t> rank) {
  // With a rank: its events, and those that name none when it is the
  // lowest rank of the text (a line the launcher did not prefix).
  auto ranks = text_ranks(events);
  auto mine = [&](const std::optional<uint32_t>& r) {
    if (!rank) return true;
    return r ? *r == *rank : ranks.empty() || ranks.front() == *rank;
  };
  TextModel t(model);
  for (const auto& r : events.recompiles)
    if (mine(r.rank)) t.reserve(r.compile_id);
  for (const auto& h : events.limit_hits)
    if (mine(h.rank)) t.reserve(h.compile_id);
  for (const auto& g : events.graph_breaks)
    if (mine(g.rank)) t.reserve(g.compile_id);
  // In the order PyTorch printed them would be best; by kind keeps the
  // numbering of frames stable: recompiles name frames first.
  std::vector<std::optional<trace::CompileId>> placed(events.recompiles.size());
  for (size_t i = 0; i < events.recompiles.size(); ++i)
    if (mine(events.recompiles[i].rank)) placed[i] = t.recompile(events.recompiles[i]);
  for (const auto& h : events.limit_hits)
    if (mine(h.rank)) t.limit(h);
  std::map<std::string, tl::GraphBreak> by_place;
  for (const auto& g : events.graph_breaks)
    if (mine(g.rank)) t.graph_break(g, &by_place);
  // A dump belongs to the compile its prefix names, else to the recompile
  // printed before it (its guards are printed when that compile ends).
  for (const auto& g : events.guards) {
    if (!mine(g.rank)) continue;
    model::ReportModel::TextGuards tg;
    if (auto c = trace::parse_bare_compile_id(g.compile_id); c && c->frame_id)
      tg.id = TextModel::id(*c->frame_id, c->frame_compile_id.value_or(0));
    else if (g.after_recompiles > 0)
      tg.id = placed[g.after_recompiles - 1];
    tg.text = g.text;
    model->text_guards.push_back(std::move(tg));
  }
  if (rank) model->rank = rank;
  model->source_kind = "torch_logs";
  model->text_lines = events.lines;
  model->text_unknown_lines = events.unknown_lines;
  model->text_guard_dumps = events.guard_dumps;
}

TextRead read_text_log(const std::string& path) {
  TextRead out;
  auto source = io::open_source(path == "-" ? "/dev/stdin" : path, &out.error);
  if (!source) return out;
  io::LineReader lines(std::move(source));
  tl::Reader reader;
  io::Line line;
  while (lines.next(&line)) reader.feed(line.text);
  reader.finish();
  if (!lines.error().empty()) {
    out.error = lines.error();
    return out;
  }
  out.models = text_models(reader.events(), path);
  out.ok = true;
  return out;
}

std::vector<model::ReportModel> text_models(const trace::torch_logs::Events& events,
                                            const std::string& path) {
  std::vector<model::ReportModel> models;
  auto ranks = text_ranks(events);
  auto one = [&](std::optional<uint32_t> rank) {
    model::ReportModel& m = models.emplace_back();
    m.input_path = path;
    add_text_events(events, &m, rank);
  };
  if (ranks.size() <= 1) {
    one(ranks.empty() ? std::nullopt : std::optional<uint32_t>(ranks.front()));
  } else {
    for (uint32_t r : ranks) one(r);
  }
  return models;
}

}  // namespace tlscope::ingest
