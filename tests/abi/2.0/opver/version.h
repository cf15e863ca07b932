/*
 * opver/version.h as opver 0.2.0 shipped it, with plugin ABI 2.0: the
 * frozen headers of tests/abi/2.0 (see its README).
 */
#ifndef OPVER_VERSION_H
#define OPVER_VERSION_H

#define OPVER_VERSION_STRING "0.2.0"
#define OPVER_VERSION_MAJOR 0
#define OPVER_VERSION_MINOR 2
#define OPVER_VERSION_PATCH 0

#define OPVER_ABI_MAJOR 2
#define OPVER_ABI_MINOR 0

#endif /* OPVER_VERSION_H */
