#ifndef GCDQUIZ_FUZZER_DRIVER_H
#define GCDQUIZ_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (in the runtime -sanitize=fuzzer links): SwiftPM names an executable's
// entry point itself, so libFuzzer's own main is not used and the program calls this instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
