#include "drivers/factory.h"

#include <gtest/gtest.h>

#include "drivers/board_spec.h"

namespace eboard::drivers {
namespace {

TEST(Factory, EveryFamilyHasADecoderBehindTheOneInterface) {
  EXPECT_EQ(driver_names(), "dgt, chesslink, chessnut, certabo");
  for (const DriverInfo& info : all_drivers()) {
    const auto decoder = make_decoder(BoardSpec{std::string(info.name), "x", {}, {}, {}});
    ASSERT_NE(decoder, nullptr) << info.name;
    // Only DGT boards bring a clock; the three others have lights.
    EXPECT_EQ(decoder->traits().clock, info.name == "dgt") << info.name;
    EXPECT_EQ(decoder->traits().lights, info.name != "dgt") << info.name;
    EXPECT_FALSE(decoder->in_sync());
  }
  EXPECT_EQ(make_decoder(BoardSpec{"sim", "x", {}, {}, {}}), nullptr);
}

TEST(Factory, LineSettingsAndUsbIds) {
  EXPECT_EQ(find_driver("chesslink")->line, (LineSettings{38400, 7, Parity::kOdd}));
  EXPECT_EQ(find_driver("certabo")->line, (LineSettings{38400, 8, Parity::kNone}));
  EXPECT_EQ(find_driver("dgt")->line, (LineSettings{9600, 8, Parity::kNone}));
  const DriverInfo& chessnut = *find_driver("chessnut");
  EXPECT_EQ(chessnut.transport, TransportKind::kUsbHid);
  for (const std::uint16_t product : {0x8001, 0x8002, 0x8100, 0x8600}) {
    EXPECT_TRUE(chessnut.usb[0].matches(0x2D80, product)) << std::hex << product;
  }
  EXPECT_FALSE(chessnut.usb[0].matches(0x2D80, 0x1234));
  EXPECT_FALSE(find_driver("fen"));
}

TEST(BoardSpecKeys, ClockNone) {
  auto spec = std::get<BoardSpec>(parse_board_spec("certabo:/dev/ttyUSB0,clock=none"));
  EXPECT_EQ(spec.clock, ClockSetting::kNone);
  spec = std::get<BoardSpec>(parse_board_spec("chessnut:usb,serial=ABC"));
  EXPECT_EQ(spec.device, "usb");
  EXPECT_EQ(*spec.serial, "ABC");
  EXPECT_EQ(spec.clock, ClockSetting::kAuto);
  EXPECT_EQ(std::get<SpecError>(parse_board_spec("dgt:/x,clock=yes")).message,
            "clock= takes none or auto, not 'yes'");
}

}  // namespace
}  // namespace eboard::drivers
