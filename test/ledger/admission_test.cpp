// Config::sharing and its MEDUSA_GPU_* variables: typed values, errors for bad ones.
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/ledger/admission.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace {

using medusa::GpuAdmission;
using medusa::Sharing;
using medusa::ledger::resolve_sharing;

struct Env {
  const char* name;
  Env(const char* n, const char* value) : name(n) { setenv(n, value, 1); }
  ~Env() { unsetenv(name); }
};

std::string error_of(const Sharing& s) {
  try {
    resolve_sharing(s);
  } catch (const medusa::Error& e) {
    return e.message();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("sharing: defaults wait an hour in the default ledger", "[ledger]") {
  const Sharing s = resolve_sharing(Sharing{});
  CHECK(s.admission == GpuAdmission::Wait);
  CHECK(s.waitSeconds == 3600.0);
  CHECK(!s.ledgerDir.empty());
  CHECK(medusa::ledger::describe_sharing(s).rfind("wait up to 3600 s", 0) == 0);
}

TEST_CASE("sharing: the environment overrides Config::sharing", "[ledger]") {
  const Env a("MEDUSA_GPU_ADMISSION", "fail"), w("MEDUSA_GPU_WAIT_SECONDS", "2.5"), d("MEDUSA_LEDGER_DIR", "/tmp/x");
  const Sharing s = resolve_sharing(Sharing{});
  CHECK(s.admission == GpuAdmission::FailAtOnce);
  CHECK(s.waitSeconds == 2.5);
  CHECK(s.ledgerDir == "/tmp/x");
  const Env off("MEDUSA_GPU_ADMISSION", "off");
  CHECK(resolve_sharing(Sharing{}).admission == GpuAdmission::Off);
}

TEST_CASE("sharing: bad values are errors that say what to give", "[ledger]") {
  {
    const Env a("MEDUSA_GPU_ADMISSION", "queue");
    CHECK(error_of(Sharing{}).find("MEDUSA_GPU_ADMISSION=queue is not a value Medusa knows; use one of: wait, fail, off") == 0);
  }
  {
    const Env w("MEDUSA_GPU_WAIT_SECONDS", "ten");
    CHECK(error_of(Sharing{}).find("MEDUSA_GPU_WAIT_SECONDS=ten is not a number of seconds") == 0);
  }
  {
    const Env w("MEDUSA_GPU_WAIT_SECONDS", "-1");
    CHECK(error_of(Sharing{}).find("MEDUSA_GPU_WAIT_SECONDS = -1") == 0);
  }
  Sharing zero;
  zero.waitSeconds = 0;
  CHECK(error_of(zero).find("Config::sharing.waitSeconds = 0") == 0);
  zero.waitSeconds = std::nan("");
  CHECK(error_of(zero).find("is not a timeout") != std::string::npos);
  zero.admission = GpuAdmission::FailAtOnce;  // (no wait: the timeout does not matter)
  CHECK(error_of(zero) == "(no error)");
}

TEST_CASE("sharing: MEDUSA_GPU_CAPACITY takes bytes with a binary unit", "[ledger]") {
  {
    const Env c("MEDUSA_GPU_CAPACITY", "40G");
    CHECK(resolve_sharing(Sharing{}).capacityBytes == (std::uint64_t{40} << 30));
  }
  {
    const Env c("MEDUSA_GPU_CAPACITY", "1048576");
    CHECK(resolve_sharing(Sharing{}).capacityBytes == 1048576);
  }
  for (const char* bad : {"0", "-5G", "12X", "G", "40 G", "99999999999T"}) {
    const Env c("MEDUSA_GPU_CAPACITY", bad);
    INFO(bad);
    CHECK(error_of(Sharing{}).find(std::string("MEDUSA_GPU_CAPACITY=") + bad + " is not a capacity") == 0);
  }
}
