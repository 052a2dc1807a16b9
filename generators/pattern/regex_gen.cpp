#include "generators/pattern/regex_gen.h"

#include <algorithm>
#include <utility>

#include "kube/go/utf8.h"

namespace convcheck::pattern {
namespace {

using Kind = Node::Kind;

std::size_t satAdd(std::size_t a, std::size_t b) { return std::min(a + b, kUnbounded); }

std::size_t satMul(std::size_t a, std::size_t b) {
  if (a == 0 || b == 0) return 0;
  if (a >= kUnbounded / b) return kUnbounded;
  return a * b;
}

bool isDead(const Node& node) { return node.minLen >= kUnbounded; }

void markDead(Node& node) {
  node.minLen = kUnbounded;
  node.maxLen = 0;
}

// Post-order: [minLen, maxLen] of every node; dead nodes get minLen = kUnbounded > maxLen.
void analyseLengths(Node& node, const std::vector<ClassMembers>& members) {
  for (Node& child : node.children) analyseLengths(child, members);
  switch (node.kind) {
    case Kind::kEmpty:
    case Kind::kAssert:
      node.minLen = node.maxLen = 0;
      break;
    case Kind::kLiteral:
      node.minLen = node.maxLen = 1;
      if (isSurrogate(node.rune)) markDead(node);
      break;
    case Kind::kClass:
      node.minLen = node.maxLen = 1;
      if (node.classId >= members.size() || members[node.classId].empty()) markDead(node);
      break;
    case Kind::kGroup:
      node.minLen = node.children[0].minLen;
      node.maxLen = node.children[0].maxLen;
      break;
    case Kind::kConcat:
      node.minLen = node.maxLen = 0;
      for (const Node& child : node.children) {
        if (isDead(child)) {
          markDead(node);
          return;
        }
        node.minLen = satAdd(node.minLen, child.minLen);
        node.maxLen = satAdd(node.maxLen, child.maxLen);
      }
      break;
    case Kind::kAlternate:
      markDead(node);
      for (const Node& child : node.children) {
        if (isDead(child)) continue;
        node.minLen = std::min(node.minLen, child.minLen);
        node.maxLen = std::max(node.maxLen, child.maxLen);
      }
      break;
    case Kind::kRepeat: {
      const Node& child = node.children[0];
      if (isDead(child)) {
        node.minLen = node.maxLen = 0;
        if (node.min > 0) markDead(node);
        break;
      }
      node.minLen = satMul(static_cast<std::size_t>(node.min), child.minLen);
      node.maxLen = node.max < 0 ? (child.maxLen == 0 ? 0 : kUnbounded)
                                 : satMul(static_cast<std::size_t>(node.max), child.maxLen);
      break;
    }
  }
}

bool isStartAnchor(const Node& node) {
  return node.kind == Kind::kAssert &&
         (node.assertion == AssertKind::kBeginText || node.assertion == AssertKind::kBeginLine);
}

bool isEndAnchor(const Node& node) {
  return node.kind == Kind::kAssert &&
         (node.assertion == AssertKind::kEndText || node.assertion == AssertKind::kEndLine);
}

// Whether every path through `node` passes an anchor before (atStart) or after (!atStart)
// consuming any text, so that padding on that side could never match.
bool anchored(const Node& node, bool atStart) {
  switch (node.kind) {
    case Kind::kAssert:
      return atStart ? isStartAnchor(node) : isEndAnchor(node);
    case Kind::kGroup:
      return anchored(node.children[0], atStart);
    case Kind::kRepeat:
      return node.min >= 1 && anchored(node.children[0], atStart);
    case Kind::kAlternate:
      return std::all_of(node.children.begin(), node.children.end(),
                         [atStart](const Node& child) { return anchored(child, atStart); });
    case Kind::kConcat: {
      // The first child (from that side) that is anchored or can consume text decides.
      const auto n = node.children.size();
      for (std::size_t k = 0; k < n; ++k) {
        const Node& child = node.children[atStart ? k : n - 1 - k];
        if (anchored(child, atStart)) return true;
        if (child.maxLen > 0) return false;
      }
      return false;
    }
    default:
      return false;
  }
}

bool mentionsAnchor(const Node& node, bool atStart) {
  if (atStart ? isStartAnchor(node) : isEndAnchor(node)) return true;
  return std::any_of(node.children.begin(), node.children.end(),
                     [atStart](const Node& child) { return mentionsAnchor(child, atStart); });
}

Node concatOf(Node first, Node second) {
  Node node;
  node.kind = Kind::kConcat;
  node.children.push_back(std::move(first));
  node.children.push_back(std::move(second));
  return node;
}

// Adds optional padding on one side of `node`. Where only some paths are anchored (e.g.
// `(^0|[0-9]+B)$`), the padding moves into the unanchored alternatives instead of wrapping all.
Node pad(Node node, const Node& padding, bool atStart) {
  if (isDead(node) || anchored(node, atStart)) return node;
  if (mentionsAnchor(node, atStart)) {
    switch (node.kind) {
      case Kind::kAlternate:
        for (Node& child : node.children) child = pad(std::move(child), padding, atStart);
        return node;
      case Kind::kGroup:
        node.children[0] = pad(std::move(node.children[0]), padding, atStart);
        return node;
      case Kind::kConcat: {
        Node& edge = atStart ? node.children.front() : node.children.back();
        if (edge.minLen > 0) {
          edge = pad(std::move(edge), padding, atStart);
          return node;
        }
        break;
      }
      default:
        break;
    }
  }
  return atStart ? concatOf(padding, std::move(node)) : concatOf(std::move(node), padding);
}

std::size_t ceilDiv(std::size_t a, std::size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// Padding runes are placeholders during the walk and are filled in at the end, once the word
// boundaries next to them (\b, \B) are known.
constexpr char32_t kPadSlot = 0x110000;
constexpr std::size_t kOutside = static_cast<std::size_t>(-1);  // before or after the text

bool isWordRune(char32_t rune) {  // Go's \b is an ASCII word boundary
  return (rune >= '0' && rune <= '9') || (rune >= 'a' && rune <= 'z') ||
         (rune >= 'A' && rune <= 'Z') || rune == '_';
}

enum class WordNeed { kAny, kWord, kNonWord, kConflict };

WordNeed combine(WordNeed need, bool word) {
  const WordNeed want = word ? WordNeed::kWord : WordNeed::kNonWord;
  if (need == WordNeed::kAny || need == want) return want;
  return WordNeed::kConflict;
}

// Walks the tree once, appending runes; every method gets the window [lo, hi] its output must
// fall in and returns false on a dead end.
class Builder {
 public:
  Builder(const GenTree& tree, ChoiceSource& choices, std::size_t maxSteps)
      : tree_(tree), choices_(choices), maxSteps_(maxSteps) {}

  bool emit(const Node& node, std::size_t lo, std::size_t hi) {
    lo = std::max(lo, node.minLen);
    hi = std::min(hi, node.maxLen);
    if (lo > hi || ++steps_ > maxSteps_) return false;
    switch (node.kind) {
      case Kind::kEmpty:
        return true;
      case Kind::kAssert:
        return emitAssert(node.assertion);
      case Kind::kLiteral:
        return put(node.rune);
      case Kind::kClass:
        return putFrom(tree_.members[node.classId], nextNeed());
      case Kind::kGroup:
        return emit(node.children[0], lo, hi);
      case Kind::kConcat:
        return emitConcat(node.children, lo, hi);
      case Kind::kAlternate:
        return emitAlternate(node.children, lo, hi);
      case Kind::kRepeat:
        return emitRepeat(node, lo, hi);
    }
    return false;
  }

  // Settles the boundaries still open at the end of the text and fills the padding slots.
  bool finish() {
    for (const auto& [left, differ] : pending_) {
      const auto leftWord = wordAt(left);
      if (!leftWord) {
        links_.push_back({left, kOutside, differ});
      } else if (*leftWord != differ) {  // the end of text is not a word rune
        return false;
      }
    }
    pending_.clear();
    const ClassMembers& padMembers = tree_.members[tree_.padClass];
    for (std::size_t i = 0; i < out_.size(); ++i) {
      if (out_[i] != kPadSlot) continue;
      WordNeed need = WordNeed::kAny;
      for (const Link& link : links_) {
        std::optional<bool> other;
        if (link.right == i) other = wordAt(link.left);
        if (link.left == i)
          other = link.right == kOutside ? std::optional(false) : wordAt(link.right);
        if (other) need = combine(need, link.differ ? !*other : *other);
      }
      std::optional<char32_t> rune = pick(padMembers, need);
      if (!rune) return false;
      out_[i] = *rune;
    }
    return true;
  }

  std::u32string take() { return std::move(out_); }

 private:
  struct Link {  // a \b (differ) or \B between two positions, one of them a padding slot
    std::size_t left;
    std::size_t right;
    bool differ;
  };

  std::optional<bool> wordAt(std::size_t position) const {
    if (position == kOutside) return false;
    if (out_[position] == kPadSlot) return std::nullopt;
    return isWordRune(out_[position]);
  }

  // What the next rune must be for the boundaries pending at the current end.
  WordNeed nextNeed() const {
    WordNeed need = WordNeed::kAny;
    for (const auto& [left, differ] : pending_) {
      if (const auto leftWord = wordAt(left)) need = combine(need, differ ? !*leftWord : *leftWord);
    }
    return need;
  }

  std::optional<char32_t> pick(const ClassMembers& members, WordNeed need) {
    if (need == WordNeed::kConflict) return std::nullopt;
    if (need == WordNeed::kAny) {
      return members[choices_.draw(static_cast<std::uint32_t>(members.size()))];
    }
    std::vector<char32_t> allowed;
    for (char32_t rune : members) {
      if (isWordRune(rune) == (need == WordNeed::kWord)) allowed.push_back(rune);
    }
    if (allowed.empty()) return std::nullopt;
    return allowed[choices_.draw(static_cast<std::uint32_t>(allowed.size()))];
  }

  bool putFrom(const ClassMembers& members, WordNeed need) {
    const auto rune = pick(members, need);
    return rune && put(*rune);
  }

  // Appends a rune (or a padding slot), settling the boundaries pending before it.
  bool put(char32_t rune) {
    if (ended_) return false;
    if (needNewline_) {
      if (rune != '\n') return false;
      needNewline_ = false;
    }
    const std::size_t position = out_.size();
    for (const auto& [left, differ] : pending_) {
      const auto leftWord = wordAt(left);
      if (!leftWord || rune == kPadSlot) {
        links_.push_back({left, position, differ});
      } else if ((*leftWord != isWordRune(rune)) != differ) {
        return false;
      }
    }
    pending_.clear();
    out_.push_back(rune);
    return true;
  }

  bool emitAssert(AssertKind kind) {
    switch (kind) {
      case AssertKind::kBeginText:
        return out_.empty();
      case AssertKind::kBeginLine:
        return out_.empty() || out_.back() == '\n';
      case AssertKind::kEndText:
        ended_ = true;
        return true;
      case AssertKind::kEndLine:
        needNewline_ = true;
        return true;
      case AssertKind::kWordBoundary:
      case AssertKind::kNotWordBoundary:
        pending_.emplace_back(out_.empty() ? kOutside : out_.size() - 1,
                              kind == AssertKind::kWordBoundary);
        return true;
    }
    return false;
  }

  // Emits `count` items, item(i) for i in [0, count), with total length in [lo, hi]: each item's
  // window leaves room for the minimum, and asks for no more than the maximum, of those after it.
  template <typename ItemAt>
  bool emitSequence(std::size_t count, const ItemAt& itemAt,
                    const std::vector<std::size_t>& restMin,
                    const std::vector<std::size_t>& restMax, std::size_t lo, std::size_t hi) {
    std::size_t used = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (hi - used < restMin[i + 1]) return false;
      const std::size_t need = lo > used ? lo - used : 0;
      const std::size_t itemLo = need > restMax[i + 1] ? need - restMax[i + 1] : 0;
      const std::size_t itemHi = hi - used - restMin[i + 1];
      const std::size_t before = out_.size();
      if (!emit(itemAt(i), itemLo, itemHi)) return false;
      used += out_.size() - before;
    }
    return used >= lo && used <= hi;
  }

  bool emitConcat(const std::vector<Node>& items, std::size_t lo, std::size_t hi) {
    std::vector<std::size_t> restMin(items.size() + 1, 0);
    std::vector<std::size_t> restMax(items.size() + 1, 0);
    for (std::size_t i = items.size(); i-- > 0;) {
      restMin[i] = satAdd(restMin[i + 1], items[i].minLen);
      restMax[i] = satAdd(restMax[i + 1], items[i].maxLen);
    }
    return emitSequence(
        items.size(), [&](std::size_t i) -> const Node& { return items[i]; }, restMin, restMax, lo,
        hi);
  }

  bool emitAlternate(const std::vector<Node>& branches, std::size_t lo, std::size_t hi) {
    std::vector<std::size_t> viable;
    for (std::size_t i = 0; i < branches.size(); ++i) {
      if (std::max(lo, branches[i].minLen) <= std::min(hi, branches[i].maxLen)) viable.push_back(i);
    }
    if (viable.empty()) return false;
    const std::size_t pick = viable[choices_.draw(static_cast<std::uint32_t>(viable.size()))];
    return emit(branches[pick], lo, hi);
  }

  bool emitRepeat(const Node& node, std::size_t lo, std::size_t hi) {
    const Node& body = node.children[0];
    if (isDead(body)) return node.min == 0 && lo == 0;
    if (body.maxLen == 0) {  // zero-width body: repeating it changes nothing
      return node.min == 0 ? lo == 0 : emit(body, 0, 0);
    }
    const std::size_t maxCount = node.max < 0 ? kUnbounded : static_cast<std::size_t>(node.max);
    const std::size_t needed =
        body.maxLen >= kUnbounded ? (lo > 0 ? 1 : 0) : ceilDiv(lo, body.maxLen);
    std::size_t countLo = std::max(static_cast<std::size_t>(node.min), needed);
    const std::size_t countHi =
        std::min(maxCount, body.minLen == 0 ? countLo + hi + 1 : hi / body.minLen);
    // Padding after a word rune that a \B ties to a following word rune must not be empty.
    if (node.padding && nextNeed() == WordNeed::kWord) countLo = std::max<std::size_t>(countLo, 1);
    if (countLo > countHi) return false;
    std::size_t count = countLo;
    const bool skipPadding = node.padding && countLo == 0 && choices_.draw(4) != 3;
    if (countHi > countLo && !skipPadding) {
      std::size_t span = std::min<std::size_t>(countHi - countLo, kMaxSpan);
      if (span > 3 && choices_.draw(2) == 0) span = 3;  // half the time, few repetitions
      count = countLo + choices_.draw(static_cast<std::uint32_t>(span + 1));
      if (node.padding && count == 0) count = 1;
    }
    if (node.padding) {
      for (std::size_t i = 0; i < count; ++i) {
        if (!put(kPadSlot)) return false;
      }
      return true;
    }
    std::vector<std::size_t> restMin(count + 1, 0);
    std::vector<std::size_t> restMax(count + 1, 0);
    for (std::size_t i = 0; i <= count; ++i) {
      restMin[i] = satMul(count - i, body.minLen);
      restMax[i] = satMul(count - i, body.maxLen);
    }
    return emitSequence(
        count, [&](std::size_t) -> const Node& { return body; }, restMin, restMax, lo, hi);
  }

  const GenTree& tree_;
  ChoiceSource& choices_;
  std::size_t maxSteps_;
  std::size_t steps_ = 0;
  std::u32string out_;
  bool ended_ = false;                                 // passed \z or $: nothing may follow
  bool needNewline_ = false;                           // passed (?m)$: only a newline may follow
  std::vector<std::pair<std::size_t, bool>> pending_;  // \b, \B at the end: (left, differ)
  std::vector<Link> links_;
};

}  // namespace

GenTree prepareTree(const Node& root, std::vector<ClassMembers> members, std::size_t padClass) {
  GenTree tree;
  tree.members = std::move(members);
  tree.padClass = padClass;
  tree.root = root;
  analyseLengths(tree.root, tree.members);

  Node padBody;
  padBody.kind = Kind::kClass;
  padBody.classId = padClass;
  Node padding;
  padding.kind = Kind::kRepeat;
  padding.min = 0;
  padding.max = -1;
  padding.padding = true;
  padding.children.push_back(std::move(padBody));
  analyseLengths(padding, tree.members);

  tree.root = pad(std::move(tree.root), padding, true);
  tree.root = pad(std::move(tree.root), padding, false);
  analyseLengths(tree.root, tree.members);
  return tree;
}

std::optional<std::pair<std::size_t, std::size_t>> lengthWindow(const GenTree& tree,
                                                                std::size_t minLen,
                                                                std::optional<std::size_t> maxLen) {
  if (isDead(tree.root)) return std::nullopt;
  const std::size_t lo = std::max(minLen, tree.root.minLen);
  std::size_t hi = std::min(tree.root.maxLen, satAdd(lo, kMaxSpan));
  hi = std::min(hi, maxLen ? *maxLen : satAdd(lo, kDefaultSpan));
  if (lo > hi) return std::nullopt;
  return std::make_pair(lo, hi);
}

std::optional<std::u32string> buildCandidate(const GenTree& tree, const LengthRequest& request,
                                             ChoiceSource& choices) {
  const auto window = lengthWindow(tree, request.minLen, request.maxLen);
  if (!window) return std::nullopt;
  const auto [lo, hi] = *window;
  const std::size_t size = static_cast<std::size_t>(std::clamp(request.size, 0, 100));
  const std::size_t sizedHi = lo + ceilDiv((hi - lo) * size, 100);
  // Mostly anywhere in the window; sometimes exactly at its top or bottom, where bugs live. The
  // exact length is itself a recorded choice, so shrinking can still shorten it.
  std::size_t targetLo = lo;
  std::size_t targetHi = sizedHi;
  switch (choices.draw(8)) {
    case 6:
      targetLo = targetHi =
          lo + choices.drawPreferring(static_cast<std::uint32_t>(sizedHi - lo + 1),
                                      static_cast<std::uint32_t>(sizedHi - lo));
      break;
    case 7:
      targetHi = lo;
      break;
    default:
      break;
  }
  Builder builder(tree, choices, 64 * (hi + 64) + 100'000);
  if (!builder.emit(tree.root, targetLo, targetHi) || !builder.finish()) return std::nullopt;
  return builder.take();
}

}  // namespace convcheck::pattern
