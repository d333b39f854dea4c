// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c: the rdmachan tool's main() (the tool is rdmachan.c's, so that
 * test_unit.c can run it too).
 */
#include "tool.h"

int main(int argc, char **argv)
{
	return rdmachan(argc, argv);
}
