import { Injectable } from '@nestjs/common';
import { Urls } from '@app/common';
import { spacePermissions } from '../../access/domain/permissions';
import { MemberSpaceView, SpaceView } from '../application/spaces.service';
import { gitSyncInstallation } from '../domain/space';

/** GitBook's `Space` object, with permissions from the caller's effective role on it. */
@Injectable()
export class SpacePresenter {
  constructor(private readonly urls: Urls) {}

  present({ space, role }: SpaceView) {
    const s = space.toState();
    return {
      object: 'space' as const,
      id: s.id,
      title: s.title,
      emoji: s.emoji,
      visibility: s.visibility,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      ...(s.deletedAt ? { deletedAt: s.deletedAt.toISOString() } : {}),
      editMode: s.editMode,
      mergeRules: s.mergeRules,
      urls: {
        location: this.urls.api(`/spaces/${s.id}`),
        app: this.urls.app(`/s/${s.id}`),
      },
      organization: s.organizationId,
      ...(s.parentId ? { parent: s.parentId } : {}),
      ...(s.language ? { language: s.language } : {}),
      revision: s.revisionId,
      defaultLevel: s.defaultLevel,
      comments: s.comments,
      changeRequests: s.changeRequests,
      changeRequestsOpen: s.changeRequestsOpen,
      changeRequestsDraft: s.changeRequestsDraft,
      permissions: spacePermissions(role, s.editMode),
      ...(s.gitSync ? { gitSync: gitSyncInstallation(s.id, s.gitSync) } : {}),
    };
  }

  /** GitBook's `MemberContentPermission`: a member's role on a space. */
  presentMemberPermission({ permission, view }: MemberSpaceView) {
    return { permission, space: this.present(view) };
  }
}
