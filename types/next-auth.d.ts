import type { Role } from "@/lib/shared/roles";
import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface User {
    role?: Role;
  }
  interface Session {
    user?: { name?: string | null; email?: string | null; image?: string | null; role?: Role };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    role?: Role;
    /** The id of the session's row (lib/server/auth/sessions.ts). */
    sid?: string;
  }
}
