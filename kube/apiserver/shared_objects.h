// Objects as a review sends them and a finding keeps them: read-only and shared, so a batch of
// large objects is held once whether one call, several calls or several findings use it.
#pragma once

#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace convcheck {

class SharedObjects {
 public:
  using Objects = std::vector<nlohmann::json>;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = nlohmann::json;
    using difference_type = std::ptrdiff_t;
    using pointer = const nlohmann::json*;
    using reference = const nlohmann::json&;

    const_iterator() = default;
    explicit const_iterator(std::vector<const nlohmann::json*>::const_iterator at) : at_(at) {}
    reference operator*() const { return **at_; }
    pointer operator->() const { return *at_; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    const_iterator operator++(int) { return const_iterator(at_++); }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.at_ == b.at_;
    }
    friend bool operator!=(const const_iterator& a, const const_iterator& b) {
      return a.at_ != b.at_;
    }

   private:
    std::vector<const nlohmann::json*>::const_iterator at_;
  };

  // Made by the two factories only: no constructor competes with a vector for a braced list.
  SharedObjects() = default;
  // Takes `objects` over.
  static SharedObjects own(Objects objects) {
    auto owned = std::make_shared<const Objects>(std::move(objects));
    return heldBy(owned, *owned);
  }
  // `objects`, which `owner` holds and keeps alive: no copy.
  static SharedObjects heldBy(std::shared_ptr<const void> owner, const Objects& objects) {
    SharedObjects s;
    s.owner_ = std::move(owner);
    s.items_.reserve(objects.size());
    for (const auto& o : objects) s.items_.push_back(&o);
    return s;
  }

  // The objects at `indices`, in that order, still shared with this one: no copy.
  SharedObjects pick(const std::vector<std::size_t>& indices) const {
    SharedObjects s;
    s.owner_ = owner_;
    for (std::size_t i : indices) s.items_.push_back(items_.at(i));
    return s;
  }
  // A copy the caller owns (reports, edits).
  Objects copy() const {
    Objects out;
    out.reserve(items_.size());
    for (const auto* o : items_) out.push_back(*o);
    return out;
  }
  // Whether the object at `i` is `object` itself, not an equal copy.
  bool holds(std::size_t i, const nlohmann::json& object) const {
    return i < items_.size() && items_[i] == &object;
  }

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const nlohmann::json& operator[](std::size_t i) const { return *items_[i]; }
  const nlohmann::json& at(std::size_t i) const { return *items_.at(i); }
  const nlohmann::json& front() const { return *items_.front(); }
  const nlohmann::json& back() const { return *items_.back(); }
  const_iterator begin() const { return const_iterator(items_.begin()); }
  const_iterator end() const { return const_iterator(items_.end()); }

  friend bool operator==(const SharedObjects& a, const SharedObjects& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a.items_[i] != b.items_[i] && *a.items_[i] != *b.items_[i]) return false;
    return true;
  }
  friend bool operator==(const SharedObjects& a, const Objects& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (*a.items_[i] != b[i]) return false;
    return true;
  }
  friend bool operator!=(const SharedObjects& a, const SharedObjects& b) { return !(a == b); }
  friend bool operator!=(const SharedObjects& a, const Objects& b) { return !(a == b); }

 private:
  std::shared_ptr<const void> owner_;
  std::vector<const nlohmann::json*> items_;
};

}  // namespace convcheck
