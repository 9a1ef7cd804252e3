import { asc } from "drizzle-orm";

import type { Database } from "../../database/db.server";
import { jobExperiences, studies } from "../../database/schema";

export type Experience = {
  id: number;
  title: string;
  company: string;
  from: string;
  to: string | null;
  currentJob: boolean;
};

export type Education = {
  id: number;
  degree: string;
  institution: string;
  from: string;
  to: string | null;
  currentlyStudying: boolean;
};

/** Job experience in the owner's order (sort key, then insertion). */
export function listExperiences(db: Database): Promise<Experience[]> {
  return db
    .select({
      id: jobExperiences.id,
      title: jobExperiences.title,
      company: jobExperiences.company,
      from: jobExperiences.from,
      to: jobExperiences.to,
      currentJob: jobExperiences.currentJob,
    })
    .from(jobExperiences)
    .orderBy(asc(jobExperiences.sortKey), asc(jobExperiences.id));
}

/** Education in the owner's order (sort key, then insertion). */
export function listStudies(db: Database): Promise<Education[]> {
  return db
    .select({
      id: studies.id,
      degree: studies.degree,
      institution: studies.institution,
      from: studies.from,
      to: studies.to,
      currentlyStudying: studies.currentlyStudying,
    })
    .from(studies)
    .orderBy(asc(studies.sortKey), asc(studies.id));
}
