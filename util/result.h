// Result<T>: a value or an error message, for expected failures (bad FEN, bad SAN, bad
// script line). Exceptions are kept for start-up only (style.md "Errors").
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace eboard {

struct Error {
  std::string message;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}
  Result(Error error) : data_(std::move(error)) {}

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const& {
    assert(ok());
    return std::get<0>(data_);
  }
  T& value() & {
    assert(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(data_));
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const {
    assert(!ok());
    return std::get<1>(data_).message;
  }

 private:
  std::variant<T, Error> data_;
};

}  // namespace eboard
