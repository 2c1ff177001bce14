// Who the app is to the operating system, in one place: the packaging
// configuration (electron-builder.config.ts) and the running app read the same
// names, so the installed app, its data folder and its taskbar entry agree.

/** Reverse-DNS id: macOS bundle id, Windows AppUserModelID, Linux desktop file. */
export const APP_ID = 'com.petstore.store-admin';
export const PRODUCT_NAME = 'Store Admin';
/** The folder under the OS's application-data folder that holds settings, keys, caches and logs. */
export const DATA_FOLDER_NAME = 'Store Admin';
