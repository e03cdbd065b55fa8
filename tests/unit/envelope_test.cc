// EnvelopeDecoder (TRACE_FORMAT §2.2, §4, §5.4): invalid JSON vs schema
// errors, the forgiving compile-id group, unknown keys and sentinels.
#include "trace/envelope.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

namespace {
using tlscope::trace::CompileId;
using tlscope::trace::DecodeStatus;
using tlscope::trace::Envelope;
using tlscope::trace::EnvelopeDecoder;
using tlscope::trace::Key;

struct Decoded {
  DecodeStatus status;
  std::string why;
};

// Decodes `json` from a padded copy; `env` stays valid while `buf` lives.
class EnvelopeTest : public ::testing::Test {
 protected:
  Decoded decode(const std::string& json) {
    buf_ = simdjson::padded_string(json);
    Decoded d;
    d.status = decoder_.decode(std::string_view(buf_.data(), buf_.size()), &env_, &d.why);
    return d;
  }
  EnvelopeDecoder decoder_;
  simdjson::padded_string buf_;
  Envelope env_;
};

std::string describe_tensor(const std::string& size) {
  return R"j({"describe_tensor": {"id": 0, "describer_id": 0, "ndim": 1, "dtype": "torch.float32",)j"
         R"j( "device": "device(type='cpu')", "size": )j" +
         size + "}}";
}

TEST_F(EnvelopeTest, OkRecordWithCompileIdRankAndPayload) {
  auto d =
      decode(R"({"dynamo_output_graph": {"sizes": {"l_x_": [4, "s0"]}}, "rank": 3,)"
             R"( "frame_id": 1, "frame_compile_id": 2, "attempt": 0, "has_payload": "abc123"})");
  ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
  ASSERT_TRUE(env_.compile_id.has_value());
  EXPECT_EQ(env_.compile_id->display(), "[1/2]");
  EXPECT_EQ(env_.compile_id->folder(), "-_1_2_0");
  EXPECT_FALSE(env_.compile_id->autograd_id.has_value());
  ASSERT_TRUE(env_.rank.has_value());
  EXPECT_EQ(*env_.rank, 3u);
  EXPECT_TRUE(env_.has(Key::kDynamoOutputGraph));
  EXPECT_TRUE(env_.has(Key::kHasPayload));
  EXPECT_FALSE(env_.has(Key::kDynamoGuards));
  EXPECT_EQ(env_.has_payload(), "abc123");
  EXPECT_TRUE(env_.unknown_keys.empty());
}

TEST_F(EnvelopeTest, InvalidJsonAndNonObjects) {
  for (const char* bad : {"{\"dynamo_start\": {}, ", "{\"a\": 1} trailing", "{'a': 1}", "nul",
                          "[1, 2]", "\"a string\"", "42", "null", "true"}) {
    auto d = decode(bad);
    EXPECT_EQ(d.status, DecodeStatus::kInvalidJson) << bad;
    EXPECT_FALSE(d.why.empty()) << bad;
  }
  // Trailing whitespace is fine.
  EXPECT_EQ(decode("{\"dynamo_start\": {}}  \t ").status, DecodeStatus::kOk);
}

TEST_F(EnvelopeTest, SchemaErrors) {
  const std::vector<std::string> bad = {
      R"({"compilation_metrics": {"cache_size": -1}})",
      R"({"compilation_metrics": {"graph_op_count": 1.0}})",
      R"({"rank": "0", "dynamo_start": {}})",
      R"({"rank": -1})",
      R"({"dynamo_start": {"stack": [{"line": 1, "name": "f", "loc": "x"}]}})",
      R"({"dynamo_start": {"stack": [{"line": 1, "name": "f", "filename": "0"}]}})",
      describe_tensor("[2, 1.5]"),
      R"({"aot_forward_graph": true})",
      R"({"dynamo_guards": 0})",
      R"({"str": ["a", 0, 1]})",
      R"({"str": ["a"]})",
      R"({"str": [0, "a"]})",
      R"({"link": {"name": "x"}})",
      R"({"link": {"url": "http://x"}})",
      R"({"artifact": {"name": "x"}})",
      R"({"graph_dump": {}})",
      R"({"has_payload": 5})",
      R"({"rank": 0, "rank": 0})",
  };
  for (const auto& json : bad) {
    auto d = decode(json);
    EXPECT_EQ(d.status, DecodeStatus::kSchemaError) << json;
    EXPECT_FALSE(d.why.empty()) << json;
  }
}

TEST_F(EnvelopeTest, ValidCounterpartsOfTheSchemaErrorsDecode) {
  const std::vector<std::string> good = {
      R"({"compilation_metrics": {"cache_size": 0, "graph_op_count": 3, "restart_reasons": []}})",
      R"({"rank": 0, "dynamo_start": {}})",
      R"({"dynamo_start": {"stack": [{"line": -1, "name": "f", "filename": 0, "loc": null}]}})",
      describe_tensor("[2, \"s0\"]"),
      R"({"aot_forward_graph": {"extra": 1}})",
      R"({"str": ["a", 0]})",
      R"({"link": {"name": "x", "url": "http://x"}})",
      R"({"artifact": {"name": "x", "encoding": "weird"}})",
      R"({"graph_dump": {"name": "g"}})",
  };
  for (const auto& json : good) {
    auto d = decode(json);
    EXPECT_EQ(d.status, DecodeStatus::kOk) << json << ": " << d.why;
  }
}

TEST_F(EnvelopeTest, InvalidCompileIdComponentMakesTheIdUnknown) {
  for (const char* json :
       {R"({"dynamo_start": {}, "frame_id": -1})", R"({"dynamo_start": {}, "frame_id": "x"})",
        R"({"dynamo_start": {}, "frame_id": 0, "frame_id": 1})",
        R"({"dynamo_start": {}, "frame_id": 0, "frame_id": 0})",
        R"({"dynamo_start": {}, "attempt": 1.0})",
        R"({"dynamo_start": {}, "frame_compile_id": 4294967296})",
        R"({"dynamo_start": {}, "compiled_autograd_id": [0]})"}) {
    auto d = decode(json);
    ASSERT_EQ(d.status, DecodeStatus::kOk) << json << ": " << d.why;
    EXPECT_FALSE(env_.compile_id.has_value()) << json;
    EXPECT_TRUE(env_.has(Key::kDynamoStart)) << json;
    // The invalid key is consumed by the group, not reported as unknown.
    EXPECT_TRUE(env_.unknown_keys.empty()) << json;
  }
}

TEST_F(EnvelopeTest, AllIdsNullOrMissingGiveAnIdWithAllComponentsAbsent) {
  for (const char* json : {R"({"dynamo_start": {}, "compiled_autograd_id": null, "frame_id": null,)"
                           R"( "frame_compile_id": null, "attempt": null})",
                           R"({"dynamo_start": {}})"}) {
    auto d = decode(json);
    ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
    ASSERT_TRUE(env_.compile_id.has_value()) << json;
    EXPECT_EQ(*env_.compile_id, CompileId{}) << json;
    EXPECT_EQ(env_.compile_id->display(), "[-/-]");
    EXPECT_EQ(env_.compile_id->folder(), "-_-_-_-");
  }
}

TEST_F(EnvelopeTest, AutogradIdAndLargestU32) {
  auto d = decode(R"({"dynamo_start": {}, "compiled_autograd_id": 4294967295, "frame_id": 2,)"
                  R"( "frame_compile_id": 1, "attempt": 2})");
  ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
  ASSERT_TRUE(env_.compile_id.has_value());
  EXPECT_EQ(env_.compile_id->display(), "[!4294967295/2/1_2]");
}

TEST_F(EnvelopeTest, UnknownKeysAreCollectedInOrder) {
  auto d = decode(R"({"foo": 1, "dynamo_start": {}, "bar": {"x": [1]}, "compile_id": "0/0"})");
  ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
  std::vector<std::string> got(env_.unknown_keys.begin(), env_.unknown_keys.end());
  EXPECT_EQ(got, (std::vector<std::string>{"foo", "bar", "compile_id"}));
  EXPECT_TRUE(env_.has(Key::kDynamoStart));
}

TEST_F(EnvelopeTest, SentinelEmptyArrayAcceptedNonEmptyRejectedNullAbsent) {
  auto d = decode(R"({"aot_forward_graph": []})");
  ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
  EXPECT_TRUE(env_.has(Key::kAotForwardGraph));

  EXPECT_EQ(decode(R"({"aot_forward_graph": [1]})").status, DecodeStatus::kSchemaError);
  EXPECT_EQ(decode(R"({"chromium_event": "x"})").status, DecodeStatus::kSchemaError);

  d = decode(R"({"aot_forward_graph": null, "frame_id": 1})");
  ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
  EXPECT_FALSE(env_.has(Key::kAotForwardGraph));
  ASSERT_TRUE(env_.compile_id.has_value());
  EXPECT_EQ(env_.compile_id->display(), "[1/-]");
}

TEST_F(EnvelopeTest, DecoderStateDoesNotLeakBetweenCalls) {
  ASSERT_EQ(
      decode(R"({"rank": 1, "frame_id": -1, "zzz": 0, "link": {"name": "a", "url": "b"}})").status,
      DecodeStatus::kOk);
  EXPECT_TRUE(env_.rank.has_value());
  EXPECT_FALSE(env_.compile_id.has_value());
  EXPECT_EQ(env_.unknown_keys.size(), 1u);

  auto d = decode(R"({"dynamo_start": {}, "frame_id": 4, "frame_compile_id": 0})");
  ASSERT_EQ(d.status, DecodeStatus::kOk) << d.why;
  EXPECT_FALSE(env_.rank.has_value());
  ASSERT_TRUE(env_.compile_id.has_value());
  EXPECT_EQ(env_.compile_id->display(), "[4/0]");
  EXPECT_TRUE(env_.unknown_keys.empty());
  EXPECT_FALSE(env_.has(Key::kLink));
  EXPECT_FALSE(env_.has(Key::kRank));
}

}  // namespace
