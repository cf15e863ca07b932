/*
 * opver/version.h as configure generated it when plugin ABI 2.3 was frozen
 * (package version 0.2.0): the frozen headers of tests/abi/2.3 (see its
 * README).
 */
#ifndef OPVER_VERSION_H
#define OPVER_VERSION_H

#define OPVER_VERSION_STRING "0.2.0"
#define OPVER_VERSION_MAJOR 0
#define OPVER_VERSION_MINOR 2
#define OPVER_VERSION_PATCH 0

#define OPVER_ABI_MAJOR 2
#define OPVER_ABI_MINOR 3

#endif /* OPVER_VERSION_H */
