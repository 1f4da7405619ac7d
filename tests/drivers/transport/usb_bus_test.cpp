#include "drivers/transport/usb_bus.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

namespace eboard::drivers {
namespace {

TEST(UsbBus, EmulatedDeviceFileNames) {
  EXPECT_EQ(emulated_device_file(0x2D80, 0x8001, "A7"), "2d80-8001-A7.hid");
  const auto info = parse_emulated_device_file("2d80-8001-A7.hid");
  ASSERT_TRUE(info);
  EXPECT_EQ(info->vendor_id, 0x2D80);
  EXPECT_EQ(info->product_id, 0x8001);
  EXPECT_EQ(info->serial, "A7");
  EXPECT_EQ(info->location, "emulated:2d80-8001-A7.hid");
  EXPECT_FALSE(parse_emulated_device_file(".plugging-12"));
  EXPECT_FALSE(parse_emulated_device_file("2d80-8001-A7.sock"));
}

TEST(UsbBus, ReportDescriptorUsagePage) {
  // Usage Page (Vendor 0xFF00), Usage 1, Collection ...: Chessnut's vendor interface.
  const std::uint8_t vendor[] = {0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01};
  EXPECT_EQ(report_usage_page(vendor, sizeof vendor), 0xFF00);
  // Usage Page (Generic Desktop), the other interface.
  const std::uint8_t desktop[] = {0x05, 0x01, 0x09, 0x06};
  EXPECT_EQ(report_usage_page(desktop, sizeof desktop), 0x0001);
  const std::uint8_t cut[] = {0x06, 0x00};
  EXPECT_FALSE(report_usage_page(cut, sizeof cut));
}

TEST(UsbBus, HidMessagesAreCutByTheirLengthByte) {
  const std::uint8_t two[] = {0x21, 0x01, 0x00, 0x29, 0x01, 0x00};
  EXPECT_EQ(hid_message_length(two, sizeof two), 3u);
  const std::uint8_t padded[] = {0x2A, 0x02, 0x58, 0x00, 0x00, 0x00};
  EXPECT_EQ(hid_message_length(padded, sizeof padded), 4u);
}

TEST(UsbBus, RescanFindsArrivalsAndDepartures) {
  UsbRescan rescan;
  UsbDeviceInfo a{"usb:1-1", 0x2D80, 0x8001, "1", "Chessnut Air"};
  UsbDeviceInfo b{"usb:1-2", 0x10C4, 0xEA60, "2", "CP2102"};
  auto events = rescan.compare({a});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].change, UsbChange::kArrived);
  events = rescan.compare({b});
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].change, UsbChange::kLeft);
  EXPECT_EQ(events[0].device.serial, "1");
  EXPECT_EQ(events[1].change, UsbChange::kArrived);
  EXPECT_TRUE(rescan.compare({b}).empty());
}

// The seam below libusb: a socket appearing in the directory is an arrival (inotify, no
// polling), its removal a departure, and opening it gives a HID transport of whole reports.
TEST(UsbBus, EmulatedBusReportsHotPlugAndOpensDevices) {
  char pattern[] = "/tmp/eboard-usb-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  std::string error;
  auto bus = make_emulated_bus(dir, error);
  ASSERT_TRUE(bus) << error;
  ASSERT_GE(bus->hotplug_fd(), 0);
  EXPECT_TRUE(bus->devices().empty());
  // Plug a device in the way eboard-sim chessnut does: bind, listen, rename.
  const int listener = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string temporary = dir + "/.plugging",
                    path = dir + "/" + emulated_device_file(0x2D80, 0x8001, "9");
  std::strcpy(address.sun_path, temporary.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  ASSERT_EQ(std::rename(temporary.c_str(), path.c_str()), 0);
  pollfd fd{bus->hotplug_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 2000), 1);
  auto events = bus->take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].change, UsbChange::kArrived);
  EXPECT_EQ(events[0].device.serial, "9");
  ASSERT_EQ(bus->devices().size(), 1u);
  auto opened = bus->open_hid(bus->devices()[0]);
  ASSERT_TRUE(std::holds_alternative<TransportPtr>(opened));
  auto& transport = *std::get<TransportPtr>(opened);
  const int device = ::accept(listener, nullptr, nullptr);
  ASSERT_GE(device, 0);
  // Two commands written at once leave as two reports.
  const std::uint8_t commands[] = {0x21, 0x01, 0x00, 0x29, 0x01, 0x00};
  std::size_t written = 0;
  while (written < sizeof commands) {
    written += std::get<std::size_t>(
        transport.write_some(std::span(commands + written, sizeof commands - written)));
  }
  std::uint8_t report[64];
  EXPECT_EQ(::recv(device, report, sizeof report, 0), 3);
  EXPECT_EQ(::recv(device, report, sizeof report, 0), 3);
  const std::uint8_t battery[] = {0x2A, 0x02, 0x58, 0x00};
  ::send(device, battery, sizeof battery, 0);
  pollfd readable{transport.fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&readable, 1, 2000), 1);
  EXPECT_EQ(std::get<std::size_t>(transport.read_some(report)), 4u);
  // Unplugged: the departure, and the open device reads as gone.
  ::close(device);
  ::close(listener);
  ::unlink(path.c_str());
  ASSERT_EQ(::poll(&fd, 1, 2000), 1);
  events = bus->take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].change, UsbChange::kLeft);
  EXPECT_TRUE(std::holds_alternative<IoError>(transport.read_some(report)));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace eboard::drivers
