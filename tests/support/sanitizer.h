// Whether the tests run under AddressSanitizer (g++ or clang), for the few limits that must allow
// for its shadow memory and slower code. Used by the hostile-webhook and pattern tests.
#pragma once

namespace convcheck {

#if defined(__SANITIZE_ADDRESS__)  // g++
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

}  // namespace convcheck
