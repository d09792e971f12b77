## emu/local.mk — sources of emu/ (included by Makefile.am)
