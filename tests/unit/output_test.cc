// model::Output keeps what few outputs have apart and an MD5 as 16 bytes, and
// model::PayloadFile its path in shared pieces and its MD5 likewise: every
// value must come back as it was set, and copies must not share edits.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/recent_set.h"
#include "model/compile_index.h"
#include "model/spilled_texts.h"

namespace {

using tlscope::model::Output;
using namespace tlscope::model;

std::string random_md5_like(std::mt19937* rng) {
  static const std::string kAlphabets[] = {"0123456789abcdef", "0123456789ABCDEFabcdef",
                                           std::string("g-x\0\xff\"\\", 7)};
  const std::string& alphabet = kAlphabets[(*rng)() % 3];
  size_t size = (*rng)() % 4 == 0 ? (*rng)() % 40 : 32;
  std::string s;
  for (size_t i = 0; i < size; ++i) s += alphabet[(*rng)() % alphabet.size()];
  return s;
}

TEST(Output, APayloadMd5ComesBackAsTheLogWroteIt) {
  std::mt19937 rng(7);
  std::vector<std::string> md5s = {"", "d41d8cd98f00b204e9800998ecf8427e",
                                   "D41D8CD98F00B204E9800998ECF8427E",
                                   "d41d8cd98f00b204e9800998ecf8427", "not a digest"};
  for (int i = 0; i < 3000; ++i) md5s.push_back(random_md5_like(&rng));
  std::vector<Output> outputs(md5s.size());
  for (size_t i = 0; i < md5s.size(); ++i) {
    outputs[i].set_payload_md5(md5s[i]);
    ASSERT_EQ(outputs[i].payload_md5(), md5s[i]);
    EXPECT_EQ(outputs[i].has_payload_md5(), !md5s[i].empty());
  }
  // The same digest exactly when the same text, whichever way it is kept.
  for (size_t i = 0; i < 300; ++i)
    for (size_t j = 0; j < md5s.size(); j += 7)
      ASSERT_EQ(outputs[i].same_payload_md5(outputs[j]), md5s[i] == md5s[j])
          << md5s[i] << " " << md5s[j];
}

// The same for a payload file's digest, each side read into its own table
// (a diff compares files of two logs).
TEST(Outputs, ACopyIsItsOwnAndAnEmptyListHoldsNothing) {
  tlscope::model::Outputs a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.begin(), a.end());
  for (int i = 0; i < 5; ++i) {
    Output o;
    o.url = "out_" + std::to_string(i) + ".txt";
    o.number = static_cast<uint64_t>(i);
    a.push_back(o);
  }
  tlscope::model::Outputs b = a;
  b[0].url = "changed.txt";
  b.push_back(Output{});
  EXPECT_EQ(a.size(), 5u);
  EXPECT_EQ(b.size(), 6u);
  EXPECT_EQ(a[0].url, "out_0.txt");
  EXPECT_EQ(a.back().url, "out_4.txt");
  std::vector<std::string> urls;
  for (const Output& o : a) urls.push_back(o.url);
  EXPECT_EQ(urls, (std::vector<std::string>{"out_0.txt", "out_1.txt", "out_2.txt", "out_3.txt",
                                            "out_4.txt"}));
  a = b;
  EXPECT_EQ(a[0].url, "changed.txt");
  b.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(a.size(), 6u);
  b.shrink_to_fit();
  EXPECT_TRUE(b.empty());
  tlscope::model::Outputs moved = std::move(a);
  EXPECT_EQ(moved.size(), 6u);
}

TEST(PayloadFile, ADeclaredMd5ComesBackAsTheLogWroteItWhicheverTable) {
  std::mt19937 rng(11);
  std::vector<std::string> md5s = {"", "d41d8cd98f00b204e9800998ecf8427e",
                                   "D41D8CD98F00B204E9800998ECF8427E", "not a digest"};
  for (int i = 0; i < 3000; ++i) md5s.push_back(random_md5_like(&rng));
  for (bool spilled : {false, true}) {
    TextTable ta, tb;
    if (spilled) ta.spill(1);  // the other in memory
    tb.add("a text first, so that numbers differ between the tables");
    std::vector<DeclaredMd5> a(md5s.size()), b(md5s.size());
    for (size_t i = 0; i < md5s.size(); ++i) {
      a[i].set(md5s[i], &ta);
      b[md5s.size() - 1 - i].set(md5s[md5s.size() - 1 - i], &tb);
    }
    for (size_t i = 0; i < md5s.size(); ++i) {
      ASSERT_EQ(a[i].text(ta), md5s[i]);
      ASSERT_EQ(b[i].text(tb), md5s[i]);
      EXPECT_EQ(a[i].has(), !md5s[i].empty());
    }
    for (size_t i = 0; i < 300; ++i)
      for (size_t j = 0; j < md5s.size(); j += 7)
        ASSERT_EQ(a[i].same(b[j], ta, tb), md5s[i] == md5s[j]) << md5s[i] << " " << md5s[j];
    // Two of one table: a spilled table gives one text at a time.
    for (size_t i = 0; i < 300; ++i)
      for (size_t j = 1; j < md5s.size(); j += 5)
        ASSERT_EQ(a[i].same(a[j], ta, ta), md5s[i] == md5s[j]) << md5s[i] << " " << md5s[j];
  }
}

// The last items met, found again by their hash and a match; an item met
// often stays however many met once pass through its set; the least
// recently met of a full set makes room.
TEST(RecentSet, AnItemMetOftenStaysWhileOthersPassThrough) {
  tlscope::base::RecentSet<std::pair<int, int>, 8, 4> recent;  // (key, value)
  auto find = [&](int key) {
    auto* item =
        recent.find(static_cast<size_t>(key), [&](const auto& x) { return x.first == key; });
    return item ? item->second : -1;
  };
  EXPECT_EQ(find(3), -1);
  recent.put(3, {3, 30});
  EXPECT_EQ(find(3), 30);
  EXPECT_EQ(find(11), -1);              // the same set, another key
  for (int k = 11; k < 8000; k += 8) {  // all in 3's set, each met once
    ASSERT_EQ(find(k), -1);
    recent.put(static_cast<size_t>(k), {k, k * 10});
    ASSERT_EQ(find(3), 30) << k;  // met again each time: stays
    ASSERT_EQ(find(k), k * 10);
  }
  // 4 to a set: 3 and the last three of the others; the oldest of them goes
  // for a new one, then the one met least recently.
  EXPECT_EQ(find(7995), 79950);
  EXPECT_EQ(find(7987), 79870);
  EXPECT_EQ(find(7979), 79790);
  EXPECT_EQ(find(7971), -1);
  EXPECT_EQ(find(3), 30);
  recent.put(19, {19, 190});  // takes 7995's place, the least recently met
  EXPECT_EQ(find(7995), -1);
  EXPECT_EQ(find(3), 30);
  EXPECT_EQ(find(19), 190);
  EXPECT_EQ(find(4), -1);  // other sets untouched
  recent.put(4, {4, 40});
  EXPECT_EQ(find(4), 40);
  EXPECT_EQ(find(3), 30);
}

// A spilled table may give one digest text two numbers (met again long
// after): the two are still the same digest, and another is not.
TEST(PayloadFile, ADeclaredMd5MetAgainLongAfterIsTheSame) {
  TextTable t;
  t.spill(1);
  DeclaredMd5 first, again, other;
  first.set("not a digest", &t);
  for (int i = 0; i < 20000; ++i) t.add("text " + std::to_string(i));
  again.set("not a digest", &t);
  other.set("not a digest either", &t);
  EXPECT_EQ(t.size(), 20003u);  // each met once, "not a digest" twice
  EXPECT_TRUE(first.same(again, t, t));
  EXPECT_TRUE(again.same(first, t, t));
  EXPECT_FALSE(first.same(other, t, t));
  EXPECT_EQ(again.text(t), "not a digest");
}

// A table's copy names the same texts by the same numbers, and is its own.
TEST(PayloadFile, ATextTableCopyIsItsOwn) {
  TextTable t;
  std::vector<uint32_t> ids;
  for (int i = 0; i < 100; ++i) ids.push_back(t.add("text " + std::to_string(i % 60)));
  EXPECT_EQ(t.size(), 60u);
  EXPECT_EQ(ids[0], ids[60]);
  TextTable copy = t;
  t = TextTable();  // the original's texts gone
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(copy[ids[i]], "text " + std::to_string(i % 60));
    EXPECT_EQ(copy.add("text " + std::to_string(i % 60)), ids[i]);
  }
  TextTable moved = std::move(copy);
  EXPECT_EQ(moved.add("text 7"), ids[7]);
  EXPECT_EQ(moved.size(), 60u);
  // The table moved from is empty and takes texts again (its chunks went).
  EXPECT_EQ(copy.size(), 0u);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(copy.add("again"), 0u);
  EXPECT_EQ(copy[0], "again");
}

// The table keeps what a map of strings keeps: texts of every length (empty,
// longer than a chunk), through many growths, each named by the number its
// first add() gave, and what it gave out stays where it was.
TEST(PayloadFile, ATextTableAgreesWithAMap) {
  std::mt19937 rng(12);
  TextTable t;
  std::unordered_map<std::string, uint32_t> want;
  std::vector<std::pair<std::string_view, std::string>> given;  // views kept from the start
  for (int i = 0; i < 50000; ++i) {
    size_t n = i % 1000 == 999 ? 70000 + rng() % 70000 : rng() % 40;
    std::string s(n, 'a');
    for (char& c : s) c = static_cast<char>('a' + rng() % 3);
    uint32_t id = t.add(s);
    auto [it, added] = want.emplace(s, id);
    ASSERT_EQ(id, it->second) << s;
    if (added) {
      ASSERT_EQ(id, want.size() - 1);
    }
    if (added && i % 97 == 0) given.emplace_back(t[id], s);
  }
  EXPECT_EQ(t.size(), want.size());
  for (const auto& [s, id] : want) ASSERT_EQ(t[id], s);
  for (const auto& [view, s] : given) ASSERT_EQ(view, s);
  EXPECT_TRUE(want.count(""));
  EXPECT_FALSE(t.spilled());
}

// Spilled (from the start, or after its first texts, with one or a few
// chunks in memory), the table keeps its texts in a temporary file: a text
// it gives is good until its next use, and one across blocks is put
// together. Every number it gives names the text it was given for, those
// kept before the spill included. A text met again and again keeps its
// number (a compile's file names, met in each compile), however many texts
// met once pass through between; one met again long after may get a new
// number, so that nothing kept in memory grows with the texts.
TEST(PayloadFile, ASpilledTextTableNamesEachTextItWasGiven) {
  for (int spill : {0, 1, 3}) {  // spilled after 3,000 texts; 1 or 3 chunks
    SCOPED_TRACE(spill);
    std::mt19937 rng(12);
    TextTable t;
    if (spill > 0) t.spill(static_cast<size_t>(spill));
    std::vector<std::string> by_id;  // the text given for each number
    std::vector<std::string> names;  // a "compile's" file names, met again and again
    for (int k = 0; k < 40; ++k) names.push_back("file_name_" + std::to_string(k) + ".txt");
    size_t names_met = 0, names_found = 0;
    for (int i = 0; i < 50000; ++i) {
      if (spill == 0 && i == 3000) t.spill(2);  // the texts kept so far go with it
      std::string s;
      bool name = i % 2 == 0;
      if (name) {
        s = names[rng() % names.size()];
      } else {
        size_t n = i % 1000 == 999 ? 70000 + rng() % 70000 : rng() % 40;
        s.assign(n, 'a');
        for (char& c : s) c = static_cast<char>('a' + rng() % 3);
      }
      size_t before = t.size();
      uint32_t id = t.add(s);
      if (id == before) {
        by_id.push_back(s);  // a new number, the next one
      } else {
        ASSERT_LT(id, before);
        ASSERT_EQ(by_id[id], s);  // the number it had, for the same text
        names_found += name;
      }
      names_met += name;
      ASSERT_EQ(t.size(), by_id.size());
      ASSERT_EQ(t[id], s);
      if (i % 89 == 0) {  // one from long ago
        uint32_t old = static_cast<uint32_t>(rng() % t.size());
        ASSERT_EQ(t[old], by_id[old]);
      }
    }
    // Each of the 40 names new once, and then always found: texts met once
    // pass through without taking the place of those met often. (A spill
    // keeps the last texts kept before it among the last met: a name may be
    // new once more after it.)
    size_t new_names = names_met - names_found;
    EXPECT_GE(new_names, names.size());
    EXPECT_LE(new_names, spill == 0 ? 2 * names.size() : names.size());
    for (uint32_t id = 0; id < by_id.size(); ++id) ASSERT_EQ(t[id], by_id[id]);
    EXPECT_TRUE(t.spilled());
    // A copy of it is its own, in memory, names each number's text, and
    // finds a text named twice by its first number.
    TextTable copy = t;
    EXPECT_FALSE(copy.spilled());
    ASSERT_EQ(copy.size(), by_id.size());
    std::unordered_map<std::string, uint32_t> first;
    for (uint32_t id = 0; id < by_id.size(); ++id) {
      ASSERT_EQ(copy[id], by_id[id]);
      first.emplace(by_id[id], id);
    }
    EXPECT_LT(first.size(), by_id.size());  // some text was given two numbers
    for (const auto& [s, id] : first) ASSERT_EQ(copy.add(s), id);
    EXPECT_EQ(copy.size(), by_id.size());
    EXPECT_EQ(copy.add("a text never given"), by_id.size());
  }
}

// Texts appended to a SpilledTexts come back by number, in any order,
// whether they fit in a block, cross one or several (4 KB), or are empty;
// past its one block in memory, from its temporary file.
TEST(SpilledTexts, EachTextComesBackByItsNumber) {
  std::mt19937 rng(3);
  SpilledTexts texts(1);
  std::vector<std::string> given;
  for (int i = 0; i < 3000; ++i) {
    size_t n = i % 100 == 7 ? 4096 + rng() % 9000 : i % 10 == 3 ? 0 : rng() % 300;
    std::string s(n, ' ');
    for (char& c : s) c = static_cast<char>('a' + rng() % 26);
    ASSERT_EQ(texts.append(s), given.size());
    given.push_back(s);
    uint32_t old = static_cast<uint32_t>(rng() % given.size());
    ASSERT_EQ(texts.text(old), given[old]);
  }
  EXPECT_EQ(texts.size(), given.size());
  EXPECT_TRUE(texts.spilled());
  for (uint32_t id = 0; id < given.size(); ++id) ASSERT_EQ(texts.text(id), given[id]);
}

// The index finds each entry by its compile id as a map would: ids that
// differ in one field only (attempt, autograd id, a missing frame or frame compile
// id), through many growths of its table, with the "(unknown)" entry among
// them; an id never touched is not found, and entries keep first-seen order.
TEST(CompileIndex, FindsEachEntryByItsIdAsAMapWould) {
  std::mt19937 rng(26);
  CompileIndex index;
  using Key = std::tuple<std::optional<uint32_t>, std::optional<uint32_t>, std::optional<uint32_t>,
                         std::optional<uint32_t>, bool>;  // the id's fields, "has an id"
  auto key = [](const std::optional<tlscope::trace::CompileId>& id) {
    return id ? Key{id->frame_id, id->frame_compile_id, id->attempt, id->autograd_id, true} : Key{};
  };
  std::map<Key, size_t> want;  // -> entry number
  auto random_id = [&] {
    tlscope::trace::CompileId id;
    if (rng() % 13) id.frame_id = rng() % 300;  // absent, or 0, or more
    if (rng() % 8) id.frame_compile_id = rng() % 4;
    if (rng() % 3 == 0) id.attempt = rng() % 3;
    if (rng() % 5 == 0) id.autograd_id = rng() % 2;
    return id;
  };
  for (int i = 0; i < 20000; ++i) {
    if (i % 5000 == 17) {
      IndexEntry& u = index.touch(std::nullopt);
      ASSERT_FALSE(u.id().has_value());
      auto [it, added] = want.try_emplace(key(std::nullopt), index.entries().size() - 1);
      ASSERT_EQ(&u, &index.entries()[it->second]);
      continue;
    }
    auto id = random_id();
    IndexEntry& e = index.touch(id);
    ASSERT_TRUE(e.id() && *e.id() == id) << id.display();
    // A new id gets the last entry; one met before, its entry of then.
    auto [it, added] = want.try_emplace(key(id), index.entries().size() - 1);
    ASSERT_EQ(&e, &index.entries()[it->second]) << id.display();
    ASSERT_EQ(index.number_of(id), it->second) << id.display();
  }
  ASSERT_EQ(index.entries().size(), want.size());
  for (const auto& e : index.entries()) {
    if (!e.id()) continue;
    const IndexEntry* found = index.find(*e.id());
    ASSERT_EQ(found, &e) << e.id()->display();
  }
  tlscope::trace::CompileId never;
  never.frame_id = 301;
  never.frame_compile_id = 0;
  EXPECT_EQ(index.find(never), nullptr);
  EXPECT_EQ(CompileIndex().find(never), nullptr);
}

// A payload file's path is made again from its pieces as ingest made it.
TEST(PayloadFile, ThePathComesBackFromItsPieces) {
  CompileIndex index;
  IndexEntry* e = &index.touch(std::nullopt);
  auto url = [&](std::string_view folder, std::optional<std::string_view> name, uint64_t n) {
    PayloadFile f = index.make_payload_file(folder, name, n);
    index.add_payload_file(e, f);
    return index.url_of(f);
  };
  EXPECT_EQ(url("-_0_0_0", "dynamo_output_graph.txt", 12), "-_0_0_0/dynamo_output_graph_12.txt");
  EXPECT_EQ(url("-_0_0_0", "no_extension", 3), "-_0_0_0/no_extension_3");
  EXPECT_EQ(url("dump_file/model.py.html", std::nullopt, 40), "dump_file/model.py.html");
  EXPECT_EQ(url("-_1_0_0", "a.b.c", 0), "-_1_0_0/a.b_0.c");
  auto files = index.payload_files(*e);
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].folder, files[1].folder);  // kept once
  EXPECT_EQ(index.url_of(files[3]), "-_1_0_0/a.b_0.c");
  EXPECT_EQ(index.texts().size(), 6u);
  EXPECT_EQ(numbered_file(".hidden", 2), ".hidden_2");
}

// Each compile's files come back in the order they were added, however
// the compiles' files were interleaved, and whether the files live in memory
// or mostly in a temporary file (one chunk of 256 in memory): each file
// names the next of its compile, and that link is set in a spilled chunk.
TEST(CompileIndex, EachCompilesFilesComeBackInTheirOrder) {
  for (size_t resident : {0, 1}) {
    CompileIndex index;
    if (resident) index.spill_payload_files(resident);
    std::mt19937 rng(7);
    std::map<uint32_t, std::vector<uint64_t>> added;  // by frame id: file numbers
    for (uint64_t n = 0; n < 3000; ++n) {
      uint32_t frame = n < 600 ? static_cast<uint32_t>(n % 3) : static_cast<uint32_t>(rng() % 40);
      tlscope::trace::CompileId id;
      id.frame_id = frame;
      id.frame_compile_id = 0;
      IndexEntry* e = &index.touch(id);
      PayloadFile f = index.make_payload_file("-_" + std::to_string(frame), "g.txt", n);
      f.next = 12345;  // not the caller's to set
      index.add_payload_file(e, f);
      added[frame].push_back(n);
    }
    ASSERT_EQ(index.entries().size(), 40u);
    if (resident) {
      EXPECT_TRUE(index.payload_store().spilled());
    }
    for (const auto& e : index.entries()) {
      std::vector<uint64_t> got;
      for (const auto& f : index.payload_files(e)) got.push_back(f.number);
      EXPECT_EQ(got, added[*e.id()->frame_id]) << "frame " << *e.id()->frame_id;
      auto ids = index.payload_file_ids(e);
      ASSERT_EQ(ids.size(), got.size());
      for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(index.payload_file(ids[i]).number, got[i]);
    }
  }
}

TEST(Output, ACopyKeepsItsOwnRareFields) {
  Output a;
  a.url = "https://example.com/trace";
  a.is_link = true;
  a.set_link_name("Perfetto");
  a.set_subgraph("subgraph_0");
  a.set_payload_md5("Not-Hex");
  Output b = a;
  b.set_link_name("other");
  b.set_readable_url("-_0_0_0/kernel_readable.txt");
  b.set_subgraph("");
  b.set_payload_md5("0123456789abcdef0123456789abcdef");
  EXPECT_EQ(a.listed_name(), "Perfetto");
  EXPECT_EQ(a.subgraph(), "subgraph_0");
  EXPECT_FALSE(a.readable_url().has_value());
  EXPECT_EQ(a.payload_md5(), "Not-Hex");
  EXPECT_EQ(b.listed_name(), "other");
  EXPECT_EQ(b.subgraph(), "");
  EXPECT_EQ(*b.readable_url(), "-_0_0_0/kernel_readable.txt");
  EXPECT_EQ(b.payload_md5(), "0123456789abcdef0123456789abcdef");
  // A file is listed by its path; a link by its name.
  b.is_link = false;
  EXPECT_EQ(b.listed_name(), a.url);
}

TEST(Output, TheCacheMarkOfAPath) {
  Output o;
  EXPECT_EQ(o.suffix(), "");
  o.mark_cache("-_1_0_0/fx_graph_cache_miss_33.json");
  EXPECT_EQ(o.suffix(), "\u274C");
  o.mark_cache("-_1_0_0/fx_graph_cache_hit_20.json");
  EXPECT_EQ(o.suffix(), "\u2705");
  o.mark_cache("-_1_0_0/aotautograd_cache_bypass_7.json");
  EXPECT_EQ(o.suffix(), "\u2753");
  o.mark_cache("-_1_0_0/dynamo_output_graph_8.txt");
  EXPECT_EQ(o.suffix(), "");
}

}  // namespace
