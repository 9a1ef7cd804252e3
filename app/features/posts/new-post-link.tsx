import { Plus } from "lucide-react";
import { Link } from "react-router";

import { buttonClass } from "~/ui/button";

/** The owner's way to write a post, from the blog and from the owner's list. */
export function NewPostLink() {
  return (
    <Link to="/blog/new" className={buttonClass()}>
      <Plus aria-hidden="true" className="size-4" />
      New post
    </Link>
  );
}
