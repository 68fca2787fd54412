"use client";

import { useState } from "react";
import { signOut } from "@/lib/client/sign-out";
import { Button } from "@/components/ui/button";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void signOut("/signin?signed_out=1");
      }}
    >
      {busy ? "Signing out…" : "Sign out"}
    </Button>
  );
}
