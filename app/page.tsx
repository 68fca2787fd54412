import { redirect } from "next/navigation";

/** The desk starts at its orders. */
export default function HomePage() {
  redirect("/orders");
}
