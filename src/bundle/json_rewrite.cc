#include "bundle/json_rewrite.h"

#include <cstdint>
#include <vector>

#include "trace/json_write.h"

namespace tlscope::bundle {
namespace {

void append_utf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool hex4(std::string_view s, size_t at, uint32_t* v) {
  if (at + 4 > s.size()) return false;
  *v = 0;
  for (size_t i = at; i < at + 4; ++i) {
    char c = s[i];
    uint32_t d = c >= '0' && c <= '9'   ? c - '0'
                 : c >= 'a' && c <= 'f' ? c - 'a' + 10
                 : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                        : 99;
    if (d == 99) return false;
    *v = *v * 16 + d;
  }
  return true;
}

// The length of the string token starting at json[at] (a quote), or 0.
size_t string_token_length(std::string_view json, size_t at) {
  for (size_t i = at + 1; i < json.size(); ++i) {
    if (json[i] == '\\') {
      ++i;
    } else if (json[i] == '"') {
      return i + 1 - at;
    } else if (static_cast<unsigned char>(json[i]) < 0x20) {
      return 0;
    }
  }
  return 0;
}

struct Container {
  bool object = false;
  bool want_key = false;  // in an object, before a key
  std::string key;        // the current key of an object
};

}  // namespace

bool decode_json_string(std::string_view t, std::string* out) {
  out->clear();
  if (t.size() < 2 || t.front() != '"' || t.back() != '"') return false;
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    char c = t[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (++i >= t.size() - 1) return false;
    switch (t[i]) {
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case '/':
        out->push_back('/');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        uint32_t cp;
        if (!hex4(t, i + 1, &cp)) return false;
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {
          uint32_t lo;
          if (i + 2 < t.size() && t[i + 1] == '\\' && t[i + 2] == 'u' && hex4(t, i + 3, &lo) &&
              lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          } else {
            cp = 0xFFFD;
          }
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          cp = 0xFFFD;
        }
        append_utf8(out, cp);
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

namespace {

// From `i` to the next structural character or string.
std::string_view plain_run(std::string_view json, size_t i) {
  size_t j = i;
  while (j < json.size() && json[j] != '{' && json[j] != '}' && json[j] != '[' && json[j] != ']' &&
         json[j] != ',' && json[j] != ':' && json[j] != '"')
    ++j;
  return json.substr(i, j - i);
}

// Where a string token is: its depth, whether it is a key, the nearest
// key above it and the top-level key it is under.
JsonSpot spot_of(const std::vector<Container>& stack) {
  JsonSpot spot;
  spot.depth = static_cast<int>(stack.size());
  spot.is_key = !stack.empty() && stack.back().object && stack.back().want_key;
  if (stack.size() >= 1 && stack[0].object && !(stack.size() == 1 && spot.is_key))
    spot.top_key = stack[0].key;
  for (size_t d = stack.size(); d-- > 0;) {
    if (stack[d].object && !(d + 1 == stack.size() && spot.is_key)) {
      spot.key = stack[d].key;
      break;
    }
  }
  return spot;
}

// The string token at `i`, rewritten where `rewrite` says so (a key also
// becomes its object's current key); its length, 0 when it is not a string.
size_t rewrite_string(std::string_view json, size_t i, const StringRewrite& rewrite,
                      std::vector<Container>* stack, std::string* value, std::string* replacement,
                      std::string* out) {
  size_t n = string_token_length(json, i);
  if (n == 0) return 0;
  std::string_view token = json.substr(i, n);
  if (!decode_json_string(token, value)) return 0;
  JsonSpot spot = spot_of(*stack);
  replacement->clear();
  if (rewrite && rewrite(spot, *value, replacement))
    trace::append_json_string(out, *replacement);
  else
    out->append(token);
  if (spot.is_key) {
    stack->back().key = *value;
    stack->back().want_key = false;
  }
  return n;
}

}  // namespace

bool rewrite_json_strings(std::string_view json, const StringRewrite& rewrite, std::string* out) {
  std::vector<Container> stack;
  std::string value, replacement;
  bool seen_value = false;  // at the top level
  for (size_t i = 0; i < json.size();) {
    char c = json[i];
    switch (c) {
      case '{':
      case '[':
        stack.push_back({c == '{', c == '{', {}});
        out->push_back(c);
        ++i;
        continue;
      case '}':
      case ']':
        if (stack.empty() || stack.back().object != (c == '}')) return false;
        stack.pop_back();
        if (stack.empty()) seen_value = true;
        out->push_back(c);
        ++i;
        continue;
      case ',':
        if (stack.empty()) return false;
        if (stack.back().object) stack.back().want_key = true;
        out->push_back(c);
        ++i;
        continue;
      case ':':
        if (stack.empty() || !stack.back().object) return false;
        out->push_back(c);
        ++i;
        continue;
      case '"': {
        size_t n = rewrite_string(json, i, rewrite, &stack, &value, &replacement, out);
        if (n == 0) return false;
        if (stack.empty()) seen_value = true;
        i += n;
        continue;
      }
      default:
        break;
    }
    // Whitespace, numbers and literals: copied as they are.
    std::string_view run = plain_run(json, i);
    if (stack.empty() && run.find_first_not_of(" \t\r\n") != std::string_view::npos)
      seen_value = true;
    out->append(run);
    i += run.size();
  }
  return stack.empty() && seen_value;
}

}  // namespace tlscope::bundle
