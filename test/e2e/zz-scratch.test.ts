import { it } from "vitest";
import { signIn } from "../support/app-server";
import { resetApp } from "../support/shared-app";

it("scratch", async () => {
  const app = await resetApp();
  const ops = await signIn(app, "ops@example.com");
  for (const text of [
    "from_profile,to_profile,asset,amount,ref_id,note\nTreasury,Settlement,USD,1.25,,rent\nTreasury,Trading,BTC,0.001,,\nSettlement,Trading,USD,2,,",
    "from_profile,to_profile,asset,amount,ref_id,note\nOperations reserve,Settlement,LINK,3,,",
  ]) {
    const res = await fetch(`${app.url}/api/batches/preview?ref_id=abc-1`, {
      method: "POST",
      headers: { cookie: ops.cookie(), "content-type": "text/csv", origin: app.url },
      body: text,
    });
    console.log(res.status, await res.text());
  }
}, 60_000);
