// Text made safe for an HTML document (element content and quoted attribute values): valid UTF-8,
// with &, <, >, " and ' as character references. Used by the HTML report and its sections.
#pragma once

#include <string>
#include <string_view>

namespace convcheck {

std::string htmlText(std::string_view text);

}  // namespace convcheck
