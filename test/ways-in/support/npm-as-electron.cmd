@echo off
rem `npm run <script>` as an Electron executable, for Playwright on Windows (see npm-as-electron.mjs).
node "%~dp0npm-as-electron.mjs" %*
