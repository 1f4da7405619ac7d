#include "drivers/transport/serial_ports.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "drivers/factory.h"

namespace eboard::drivers {
namespace {

std::string scratch_dir() {
  char pattern[] = "/tmp/eboard-serial-XXXXXX";
  EXPECT_NE(::mkdtemp(pattern), nullptr);
  return pattern;
}

TEST(SerialPorts, EmulatedPortFileNames) {
  EXPECT_EQ(emulated_serial_file(0x04D8, 0x000A, "13579"), "04d8-000a-13579.tty");
  const auto device = parse_emulated_device_file("04d8-000a-13579.tty", kTtySuffix);
  ASSERT_TRUE(device);
  EXPECT_EQ(device->vendor_id, 0x04D8);
  EXPECT_EQ(device->product_id, 0x000A);
  EXPECT_EQ(device->serial, "13579");
  // Each seam reads its own names only; the emulator's temporary link is none.
  EXPECT_FALSE(parse_emulated_device_file("04d8-000a-13579.tty"));
  EXPECT_FALSE(parse_emulated_device_file("2d80-8001-A7.hid", kTtySuffix));
  EXPECT_FALSE(parse_emulated_device_file("04d8-000a-13579.tty.new", kTtySuffix));
  EXPECT_FALSE(parse_emulated_device_file("04d8-000a-.tty", kTtySuffix));
}

// Each link is a USB-serial port at its target's path with the identity its name gives;
// a link whose target is gone is no port, and other files are not ports.
TEST(SerialPorts, EmulatedPortsAreTheLinksToExistingTtys) {
  const std::string dir = scratch_dir();
  std::string error;
  auto ports = make_emulated_serial_ports(dir, error);
  ASSERT_TRUE(ports) << error;
  EXPECT_TRUE(ports->ports().empty());
  const std::string tty = dir + "/pts-7";
  std::FILE* made = std::fopen(tty.c_str(), "w");
  ASSERT_NE(made, nullptr);
  std::fclose(made);
  ASSERT_EQ(
      ::symlink(tty.c_str(), (dir + "/" + emulated_serial_file(0x10C4, 0xEA60, "C1")).c_str()), 0);
  ASSERT_EQ(::symlink((dir + "/gone").c_str(),
                      (dir + "/" + emulated_serial_file(0x04D8, 0x000A, "24680")).c_str()),
            0);
  ASSERT_EQ(::symlink(tty.c_str(), (dir + "/2d80-8001-A7.hid").c_str()), 0);
  const auto found = ports->ports();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].path, std::filesystem::canonical(tty).string());
  EXPECT_EQ(found[0].kind, PortKind::kUsb);
  EXPECT_EQ(found[0].usb_vendor_id, 0x10C4);
  EXPECT_EQ(found[0].usb_product_id, 0xEA60);
  EXPECT_EQ(found[0].usb_serial, "C1");
  // `auto` takes it as a Certabo candidate by its id.
  const DriverInfo* certabo = find_driver("certabo");
  ASSERT_NE(certabo, nullptr);
  EXPECT_EQ(serial_candidates(found, certabo->usb, certabo->probe_others).size(), 1u);
  std::filesystem::remove_all(dir);
}

// Plugging in is the link renamed into place (inotify, no polling), unplugging its removal.
TEST(SerialPorts, EmulatedPortsReportArrivalAndDeparture) {
  const std::string dir = scratch_dir();
  std::string error;
  auto ports = make_emulated_serial_ports(dir, error);
  ASSERT_TRUE(ports) << error;
  ASSERT_GE(ports->hotplug_fd(), 0);
  const std::string link = dir + "/" + emulated_serial_file(0x04D8, 0x000A, "13579");
  ASSERT_EQ(::symlink("/dev/null", (link + ".new").c_str()), 0);
  ASSERT_EQ(std::rename((link + ".new").c_str(), link.c_str()), 0);
  pollfd fd{ports->hotplug_fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&fd, 1, 2000), 1);
  auto events = ports->take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].change, UsbChange::kArrived);
  EXPECT_EQ(events[0].device.serial, "13579");
  EXPECT_EQ(events[0].device.vendor_id, 0x04D8);
  ASSERT_EQ(::unlink(link.c_str()), 0);
  ASSERT_EQ(::poll(&fd, 1, 2000), 1);
  events = ports->take_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].change, UsbChange::kLeft);
  EXPECT_TRUE(ports->ports().empty());
  std::filesystem::remove_all(dir);
}

TEST(SerialPorts, TheSystemsPortsHaveNoEventsOfTheirOwn) {
  auto ports = make_system_serial_ports();
  EXPECT_EQ(ports->hotplug_fd(), -1);
  EXPECT_TRUE(ports->take_events().empty());
}

}  // namespace
}  // namespace eboard::drivers
