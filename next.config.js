// @ts-check

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and server-only packages stay out of the bundle and load from node_modules.
  serverExternalPackages: ["better-sqlite3", "pg"],
};

module.exports = nextConfig;
